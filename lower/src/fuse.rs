//! Shifted fusion of sibling loop nests inside an enclosing loop: a
//! candidate schedule for [`crate::choice`].
//!
//! A time loop around several sweeps (fdtd-2d: `for t { for i for j: ey;
//! for i for j: ex; for i for j: hz }`) streams every array once per
//! sweep that touches it: seven 8 MB sweeps per time step there, where
//! the three arrays could each be streamed once. Fusing the sweeps' outer
//! loops (`for t { for i { row of ey; row of ex; row of hz } }`) keeps the
//! rows each sweep shares with the next in cache, when a shift of each
//! sweep's rows keeps every dependence: hz's row `i` reads `ey[i+1]`,
//! written by the ey sweep's row `i + 1`, so the fused loop runs hz's row
//! `i - 1` after ey's and ex's rows `i` (shifts 0, 0, 1).
//!
//! The construction, on the original schedule (the front end's `2d+1`
//! vectors, [`scop::model::SchedDim`]):
//!
//! 1. A *level* `p >= 1`: statements with the same first `p` schedule
//!    dimensions, at least one of them a loop iterator (the enclosing
//!    loop), and a constant at `p` (their position in a sequence) are
//!    *siblings*, one nest per constant; a nest is *eligible* when each of
//!    its statements has a loop iterator at `p + 1` (the nest's outer
//!    loop, the one fused).
//! 2. For two nests `a` before `b` of one sequence, the *least shift*
//!    `d(a, b)`: the dependences from `a`'s to `b`'s statements whose
//!    enclosing times agree (those the sequence orders; the others are
//!    carried by the enclosing loops and stay so) need `i_b + s_b >= i_a +
//!    s_a` for the outer iterators `i` and shifts `s` (at equal fused
//!    times `a`'s statements still run first). `d(a, b) = max (i_a - i_b)`
//!    over those dependences, found as the least `d` in `[-MAX_SHIFT,
//!    MAX_SHIFT]` with no dependence of `i_b - i_a < -d` (exact emptiness
//!    tests); none there: the nests are not fused (a shift that grows with
//!    the parameters would fuse nothing useful).
//! 3. *Runs*: sequences of consecutive eligible nests, each with a
//!    bounded least shift from every earlier one in the run (a nest
//!    joins the run after the last nest with an unbounded shift to it:
//!    fdtd-2d's first statement, a row `ey[0][j]` along `j` that the hz
//!    sweep reads in its row 0, stays out); shifts
//!    `s_b = max(0, max_a (s_a + d(a, b)))`, the least solution in which
//!    no nest runs ahead of the run's first: a positive shift is a
//!    constraint's bound, one row less breaks a dependence.
//! 4. The schedule: a fused statement's vector becomes `prefix, g, i + s,
//!    k, rest` (`g` the run's first position, `k` its own), every other's
//!    `prefix, k, x, 0, rest`: the order of everything outside the runs is
//!    unchanged. The first level with a run is taken.
//!
//! The schedule is checked by the caller against every dependence
//! ([`crate::parallel::respects`]), independently of step 2.
//!
//! *Arrays swept*: for a nest, the arrays its statements access with a
//! subscript in the fused iterator (those streamed row by row); a run
//! sweeps the union once per enclosing iteration where the nests swept
//! each its own: [`Fusion::swept`] gives both sums, the cost the choice
//! compares.

use std::collections::{BTreeMap, BTreeSet};

use presburger::{Builder, UnionMap};
use scop::model::{SchedDim, Statement};

use crate::error::Result;

/// The largest shift tried between two nests (rows of difference).
pub(crate) const MAX_SHIFT: i64 = 4;

/// A fused schedule.
#[derive(Debug, Clone)]
pub(crate) struct Fusion {
    /// Statement instances to times, restricted to the domain.
    pub map: UnionMap,
    /// The dimension of the fused loops in `map`.
    pub level: usize,
    /// Each fused statement with its shift.
    pub shifts: Vec<(String, i64)>,
    /// Arrays swept per iteration of the enclosing loops by the fused
    /// nests: one per nest and array (unfused), one per run and array
    /// (fused).
    pub swept: (usize, usize),
}

/// What the dependences from one nest to a later one ask of their shifts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Nothing (no dependence ordered by the sequence).
    Free,
    /// `s_b - s_a >= d`.
    Least(i64),
    /// No shift within [`MAX_SHIFT`].
    Unbounded,
}

/// One nest of a sequence: its statements (indices into the scop's).
type Nest = Vec<usize>;

/// The fused schedule of `model`, from its flow, anti and output
/// dependences `deps`; `None` when no run qualifies. `min_gain`: the runs
/// that sweep at most `1/g` of the arrays their nests sweep apart (`None`:
/// every run); `keep_inner`: only runs whose nests each keep their inner
/// loops ([`keeps_inner_loops`]; the automatic choice asks for both).
pub(crate) fn fused(
    model: &scop::Model,
    deps: &UnionMap,
    min_gain: Option<usize>,
    keep_inner: bool,
) -> Result<Option<Fusion>> {
    let stmts = &model.source().statements;
    let depth = stmts.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
    for p in 1..depth.saturating_sub(1) {
        let mut runs = Vec::new();
        for nests in sequences(stmts, p) {
            let keeping = nests.iter().filter(|n| keeps_inner_loops(stmts, n, p));
            if keep_inner && keeping.count() < 2 {
                // (no run of two such nests: the dependences are not asked)
                continue;
            }
            for (run, shifts) in runs_of(model, deps, stmts, &nests, p)? {
                let (apart, together) = swept(stmts, &run, p);
                let gains = together > 0 && min_gain.is_none_or(|g| apart >= g * together);
                if gains && (!keep_inner || run.iter().all(|n| keeps_inner_loops(stmts, n, p))) {
                    runs.push((run, shifts, apart, together));
                }
            }
        }
        if !runs.is_empty() {
            return Ok(Some(build(model, stmts, p, &runs)?));
        }
    }
    Ok(None)
}

/// Whether fusing `nest` along its outer loop at level `p` keeps the
/// innermost loops the lowering makes fast: its outer loop is not an
/// innermost loop, some statement has a loop inside it (fused, a nest
/// whose only loop is the fused one runs single instances in the fused
/// loop's body: cholesky's `A[i][i] -= A[i][k] * A[i][k]`, a vectorized
/// reduction along `k`, would become one instance per iteration of the `j`
/// loop it fuses with; jacobi-1d's two vectorized row loops would become
/// one loop of both statements), and
/// it is not a perfect nest of three or more loops around one statement
/// whose written element is free of one of them (a contraction, tiled
/// only as a nest of its own). The statements' dimensions inside the fused
/// loop are unchanged by the fusion, so their innermost loops keep their
/// accesses and strides. A cheap stand-in, on the statements alone, for
/// comparing the compiled code of both schedules (the test's oracle).
pub(crate) fn keeps_inner_loops(stmts: &[Statement], nest: &Nest, p: usize) -> bool {
    fn inner(s: &Statement, p: usize) -> Vec<&str> {
        s.schedule[p + 1..]
            .iter()
            .filter_map(|d| match d {
                SchedDim::Iter(n, _) => Some(n.as_str()),
                SchedDim::Const(_) => None,
            })
            .collect()
    }
    let own_loop = nest.iter().any(|&k| inner(&stmts[k], p).len() >= 2);
    let contraction = match nest.as_slice() {
        [k] => {
            let s = &stmts[*k];
            let loops = inner(s, p);
            loops.len() >= 3
                && s.accesses
                    .iter()
                    .filter(|a| a.kind != scop::model::AccessKind::Read)
                    .any(|w| loops.iter().any(|i| !w.index.iter().any(|x| x.mentions(i))))
        }
        _ => false,
    };
    own_loop && !contraction
}

/// Whether some enclosing loop holds a sequence of nests that fusion
/// could take (two or more eligible nests, a structural test: no
/// dependence is asked).
pub(crate) fn has_sequences(model: &scop::Model) -> bool {
    let stmts = &model.source().statements;
    let depth = stmts.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
    (1..depth.saturating_sub(1)).any(|p| {
        sequences(stmts, p).iter().any(|nests| {
            nests
                .iter()
                .filter(|n| n.iter().all(|&k| outer(&stmts[k], p).is_some()))
                .count()
                >= 2
        })
    })
}

/// The sequences at level `p`: for each prefix (with a loop iterator)
/// whose statements have constants at `p`, its nests in order.
fn sequences(stmts: &[Statement], p: usize) -> Vec<Vec<Nest>> {
    let mut by_prefix: BTreeMap<Vec<String>, BTreeMap<i64, Nest>> = BTreeMap::new();
    for (k, s) in stmts.iter().enumerate() {
        let Some(SchedDim::Const(c)) = s.schedule.get(p) else {
            continue;
        };
        let prefix = &s.schedule[..p];
        if !prefix.iter().any(|d| matches!(d, SchedDim::Iter(..))) {
            continue;
        }
        let key = prefix.iter().map(dim_text).collect();
        by_prefix
            .entry(key)
            .or_default()
            .entry(*c)
            .or_default()
            .push(k);
    }
    by_prefix
        .into_values()
        .filter(|m| m.len() >= 2)
        .map(|m| m.into_values().collect())
        .collect()
}

/// The outer iterator of statement `s`'s nest at level `p` (`Iter` at
/// `p + 1`), with its sign.
fn outer(s: &Statement, p: usize) -> Option<(&str, i64)> {
    match s.schedule.get(p + 1) {
        Some(SchedDim::Iter(n, sign)) => Some((n, *sign)),
        _ => None,
    }
}

/// The runs of `nests` (each at least two nests) with each nest's shift:
/// a nest joins the current run after the last nest of it with an
/// unbounded shift to it (the nests up to that one close a run of their
/// own).
fn runs_of(
    model: &scop::Model,
    deps: &UnionMap,
    stmts: &[Statement],
    nests: &[Nest],
    p: usize,
) -> Result<Vec<(Vec<Nest>, Vec<i64>)>> {
    let mut needs: BTreeMap<(usize, usize), Need> = BTreeMap::new();
    let mut need_of = |a: usize, b: usize| -> Result<Need> {
        if let Some(n) = needs.get(&(a, b)) {
            return Ok(*n);
        }
        let n = need(model, deps, stmts, &nests[a], &nests[b], p)?;
        needs.insert((a, b), n);
        Ok(n)
    };
    let eligible = |n: &Nest| n.iter().all(|&k| outer(&stmts[k], p).is_some());
    // runs as ranges of nest indices
    let mut ranges = Vec::new();
    let mut start = 0;
    for (b, nest) in nests.iter().enumerate() {
        if !eligible(nest) {
            ranges.push(start..b);
            start = b + 1;
            continue;
        }
        let mut last = None;
        for a in start..b {
            if need_of(a, b)? == Need::Unbounded {
                last = Some(a);
            }
        }
        if let Some(a) = last {
            ranges.push(start..a + 1);
            start = a + 1;
        }
    }
    ranges.push(start..nests.len());
    let mut runs = Vec::new();
    for r in ranges.into_iter().filter(|r| r.len() >= 2) {
        // s_b = max(0, max_a (s_a + d(a, b)))
        let mut shifts: Vec<i64> = Vec::new();
        for b in r.clone() {
            let mut s_b = 0;
            for (a, s_a) in r.clone().zip(shifts.clone()) {
                if let Need::Least(d) = need_of(a, b)? {
                    s_b = s_b.max(s_a + d);
                }
            }
            shifts.push(s_b);
        }
        runs.push((nests[r].to_vec(), shifts));
    }
    Ok(runs)
}

/// [`Need`] of the dependences from nest `a` to the later nest `b`.
fn need(
    model: &scop::Model,
    deps: &UnionMap,
    stmts: &[Statement],
    a: &Nest,
    b: &Nest,
    p: usize,
) -> Result<Need> {
    let names =
        |n: &Nest| -> BTreeSet<&str> { n.iter().map(|&k| stmts[k].name.as_str()).collect() };
    let (na, nb) = (names(a), names(b));
    let named = |t: Option<&std::sync::Arc<presburger::Tuple>>, set: &BTreeSet<&str>| {
        t.and_then(|t| t.name.as_deref())
            .is_some_and(|n| set.contains(n))
    };
    let mut ab = UnionMap::empty(deps.params().to_vec());
    for m in deps.maps() {
        if named(m.space().domain.as_ref(), &na) && named(Some(&m.space().range), &nb) {
            ab.add_map(m.clone())?;
        }
    }
    if ab.is_empty()? {
        return Ok(Need::Free);
    }
    // times up to the outer iterator: the enclosing prefix, then `i`
    let entries: Vec<String> = a
        .iter()
        .chain(b)
        .map(|&k| {
            let s = &stmts[k];
            let mut dims: Vec<String> = s.schedule[..p].iter().map(dim_text).collect();
            dims.push(dim_text(&s.schedule[p + 1]));
            format!("{} -> [{}]", tuple(s), dims.join(", "))
        })
        .collect();
    let partial = parse(model, &entries)?;
    let deltas = partial
        .reverse()?
        .apply_range(&ab)?
        .apply_range(&partial)?
        .deltas()?;
    let mut least = None;
    for m in deltas.maps() {
        let b = Builder::new(m.space());
        let zero = b.constant(0);
        let mut same = Vec::new();
        for j in 0..p {
            same.push(b.eq(&b.out_dim(j)?, &zero)?);
        }
        let ordered = m.intersect(&b.map(same.clone())?)?;
        if ordered.is_empty()? {
            continue;
        }
        // the least d with no difference i_b - i_a below -d
        let mut found = None;
        for d in -MAX_SHIFT..=MAX_SHIFT {
            let mut below = same.clone();
            below.push(b.le(&b.out_dim(p)?, &b.constant(-d - 1))?);
            if ordered.intersect(&b.map(below)?)?.is_empty()? {
                found = Some(d);
                break;
            }
        }
        match found {
            None => return Ok(Need::Unbounded),
            Some(d) => least = Some(least.map_or(d, |l: i64| l.max(d))),
        }
    }
    Ok(least.map_or(Need::Free, Need::Least))
}

/// Arrays swept by the nests of `run` apart and together (see the module
/// documentation).
fn swept(stmts: &[Statement], run: &[Nest], p: usize) -> (usize, usize) {
    let mut together = BTreeSet::new();
    let mut apart = 0;
    for nest in run {
        let mut mine = BTreeSet::new();
        for &k in nest {
            let s = &stmts[k];
            let Some((i, _)) = outer(s, p) else { continue };
            for a in &s.accesses {
                if a.index.iter().any(|x| x.mentions(i)) {
                    mine.insert(a.array.clone());
                }
            }
        }
        apart += mine.len();
        together.extend(mine);
    }
    (apart, together.len())
}

/// The fused schedule of the runs at level `p`.
fn build(
    model: &scop::Model,
    stmts: &[Statement],
    p: usize,
    runs: &[(Vec<Nest>, Vec<i64>, usize, usize)],
) -> Result<Fusion> {
    let mut place: BTreeMap<usize, (i64, i64)> = BTreeMap::new();
    let (mut apart, mut together) = (0, 0);
    for (run, shifts, ap, to) in runs {
        apart += ap;
        together += to;
        let SchedDim::Const(g) = stmts[run[0][0]].schedule[p] else {
            unreachable!("nests of a sequence have a constant at p")
        };
        for (nest, s) in run.iter().zip(shifts) {
            for &k in nest {
                place.insert(k, (g, *s));
            }
        }
    }
    let entries: Vec<String> = stmts
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let d = &s.schedule;
            let mut dims: Vec<String> = d[..p].iter().map(dim_text).collect();
            match place.get(&k) {
                Some((g, shift)) => {
                    dims.push(g.to_string());
                    dims.push(format!("{} + {shift}", dim_text(&d[p + 1])));
                    dims.push(dim_text(&d[p]));
                }
                None => {
                    dims.extend(d[p..=p + 1].iter().map(dim_text));
                    dims.push("0".into());
                }
            }
            dims.extend(d[p + 2..].iter().map(dim_text));
            format!("{} -> [{}]", tuple(s), dims.join(", "))
        })
        .collect();
    let map = parse(model, &entries)?.intersect_domain(model.domain())?;
    let shifts = place
        .iter()
        .map(|(&k, &(_, s))| (stmts[k].name.clone(), s))
        .collect();
    Ok(Fusion {
        map,
        level: p + 1,
        shifts,
        swept: (apart, together),
    })
}

fn dim_text(d: &SchedDim) -> String {
    match d {
        SchedDim::Const(c) => c.to_string(),
        SchedDim::Iter(n, 1) => n.clone(),
        SchedDim::Iter(n, -1) => format!("-{n}"),
        SchedDim::Iter(n, k) => format!("{k}*{n}"),
    }
}

fn tuple(s: &Statement) -> String {
    format!("{}[{}]", s.name, s.iterators.join(", "))
}

/// The union map `{ entries }` over the model's parameters.
fn parse(model: &scop::Model, entries: &[String]) -> Result<UnionMap> {
    let text = format!(
        "[{}] -> {{ {} }}",
        model.params().join(", "),
        entries.join("; ")
    );
    Ok(presburger::parse::parse_union_map(&text)?)
}
