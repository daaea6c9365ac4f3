//! Which schedule the code follows: the program's original one, or the
//! affine scheduler's (`scheduler`, Pluto-style rows by exact lexmin from
//! the kernel's dependences).
//!
//! Measured (`benches/README.md`): on the shared and the project's
//! kernels the rule below adopts the scheduler's schedule for trmm only
//! (the `j` loop outside the `i` loop that carries the dependence: a
//! parallel outer loop, the same single-thread CPU time); every other
//! kernel either has parallel outer loops already (gemm, syrk, 2mm,
//! covariance, strided), gets none from the scheduler (stencils,
//! recurrences, doitgen's shared temporary), or would lose its vector
//! loop (lrr_listing1).
//!
//! The lowering's own transformations (distribution around contractions,
//! their BLIS-style tiling, interchange of strided reductions, the
//! vectorizer) are tuned to the original loop order, and the scheduler
//! optimises for fusion and tiling (it skews stencils so that a later
//! tiling is legal, which without that tiling only lengthens the inner
//! loops' strides). So [`Policy::Auto`] adopts the scheduler's schedule
//! only where it gains what the lowering cannot get otherwise, an outer
//! parallel loop, and costs nothing the lowering measures:
//!
//! 1. the original schedule's top-level loop nests are compared by
//!    *coverage*: the number of statements inside a top-level nest whose
//!    outer loop carries no dependence (a nest [`crate::compile_pieces`]
//!    splits among the workers). When every statement is covered, the
//!    original stays (the scheduler is not run: it costs compile time;
//!    where it runs, its work is bounded, past which the original stays);
//!    so it does when no outermost band of the scheduler's tree starts
//!    with a coincident member (its code has no parallel outer loop);
//! 2. the scheduler's schedule must respect every flow, anti and output
//!    dependence ([`crate::respects_dependences`], checked here
//!    independently of the scheduler) and cover strictly more statements;
//! 3. compiled for one thread, it must have no fewer vectorized loops and
//!    tiled contractions than the original's code, and each of its
//!    innermost loops must be at least as good (the same number of scalar,
//!    strided loops or fewer), and its innermost loops may not walk more
//!    arrays at a stride other than 0 or ±1 element (counted per loop,
//!    [`crate::Compiled::strided`]): the column nest of lrr_listing1 alone,
//!    `t[i+j] = B[i][j]; C[j][i] += t[i+j]`, has a parallel outer loop
//!    under the scheduler's anti-diagonal schedule `(i + j, i)`, whose
//!    inner loop walks both `B` and `C` across rows (3× gcc's CPU time)
//!    where the original walks `C` only.
//!
//! Otherwise the original stays, with the reason in [`Chosen::reason`],
//! unless its sweeps fuse ([`Origin::Fused`]):
//!
//! 4. for code that runs on one thread (the choice is made for a number
//!    of threads, [`choose_for`]; `poly run --threads 1`), where the
//!    original's outer loops do not cover every statement, a sequence of
//!    nests inside an enclosing loop (a time loop around sweeps) is fused
//!    along the nests' outer loops with the least shifts that keep every
//!    dependence ([`crate::fuse`]) when the fused nests sweep at most half
//!    as many arrays per iteration of the enclosing loop as the nests
//!    apart ([`FUSION_GAIN`]), each fused nest keeps its inner loops
//!    ([`crate::fuse::keeps_inner_loops`], a test on the statements'
//!    shape that stands in for rule 3's comparison of compiled code; the
//!    test `the_fusion_proxy_agrees_with_the_compiled_code` holds it to
//!    that comparison on every kernel) and the result respects every
//!    dependence (checked here again). Only then are its loops generated.
//!    The fused loop carries the dependences between the nests, so the
//!    loops inside it run on one thread; on more threads the original's
//!    sweeps, parallel loops inside the enclosing loop, are kept, and the
//!    candidate is not built (the reason says so). Measured on an idle
//!    2-core Xeon (`poly run`, `--repeat 7`): heat-3d (N = 150, 10 steps)
//!    fused 108 ms on one or two threads, the original 53 ms on two;
//!    fdtd-2d (1000², 100 steps) fused 205 ms, the original 291 ms on one
//!    thread and 172 ms on two. On a loaded machine the parallel sweeps
//!    lose their second core (heat-3d under a load average of 10 on the
//!    2 cores: the original on two threads 346-444 ms, fused 269-330 ms):
//!    there `--threads 1` asks for the fused code.
//!
//! [`Policy::Scheduler`] forces the scheduler's schedule (when valid),
//! [`Policy::Fused`] the fused one, for tests; [`Policy::Original`] the
//! original.

use ast::Node;
use presburger::UnionMap;

use crate::error::{Error, Result};
use crate::kernel::Kernel;

/// Work limit of the scheduler in [`Policy::Auto`] (engine operations):
/// past it the original schedule is kept. A compile-time bound: on the
/// shared and the project's kernels the scheduler's schedule is adopted
/// for trmm only, whose run spends 28.5 thousand operations (it still
/// adopts it under a limit of 29 000); the runs that reach this limit
/// (doitgen, heat_3d, nussinov, tiled_mix, cholesky, fdtd_2d: 0.12-0.51
/// million, 4-9 ms of CPU each) all ended with the original schedule
/// before the limit was set (`benches/README.md`, issue 20). 50 000 (was
/// 100 000 until session 15) keeps 1.7 times trmm's need and cuts 10-15 %
/// of fdtd_2d's and cholesky's compile instructions. Since session 16 the
/// scheduler also stops as soon as its tree is known to have no parallel
/// outer loop ([`scheduler::Options::outer_parallel`]): doitgen, fdtd_2d,
/// heat_3d and nussinov (one component each, whose dependences leave no
/// coincident first row) before any row, within 2 000-3 000 operations.
const SCHEDULER_BUDGET: u64 = 50_000;

/// How many times fewer arrays the fused nests of a run must sweep
/// together than apart ([`crate::fuse`]) for [`Policy::Auto`] to fuse
/// them. The original's nests are parallel sweeps, the fused loop
/// carries their dependences (one thread): where the arrays do not stay
/// in cache between sweeps, the time goes into streaming them, and two
/// cores sweeping apart stream each no less than one core sweeping
/// together when the fusion halves the arrays swept, while a loaded
/// second core leaves the parallel sweeps the whole traffic on one.
const FUSION_GAIN: usize = 2;

/// Work limit of the fused schedule's construction and check (engine
/// operations).
const FUSION_BUDGET: u64 = 20_000_000;

/// Work limit of the coverage bound ([`crate::coverable`]) that decides
/// whether the scheduler is worth running (its whole computation takes at
/// most 400 operations on the shared and the project's kernels).
const BOUND_BUDGET: u64 = 100_000;

/// How the schedule is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The program's own order.
    Original,
    /// The scheduler's schedule (an error when it cannot be computed or
    /// violates a dependence).
    Scheduler,
    /// The scheduler's where the rule of this module says it helps.
    Auto,
    /// The original with its sibling nests fused by shifted rows
    /// ([`crate::fuse`]; an error when there are none to fuse or the
    /// result violates a dependence), for tests.
    Fused,
}

impl std::str::FromStr for Policy {
    type Err = Error;
    /// `auto`, `original`, `scheduler` or `fused`.
    fn from_str(s: &str) -> Result<Policy> {
        match s {
            "original" => Ok(Policy::Original),
            "scheduler" => Ok(Policy::Scheduler),
            "auto" => Ok(Policy::Auto),
            "fused" => Ok(Policy::Fused),
            _ => Err(Error::Usage(format!(
                "unknown schedule `{s}` (expected auto, original, scheduler or fused)"
            ))),
        }
    }
}

/// Where the schedule in use comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The program's order.
    Original,
    /// The affine scheduler.
    Scheduler,
    /// The original with sibling nests fused ([`crate::fuse`]).
    Fused,
}

/// Where a schedule fuses loops ([`Origin::Fused`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FusedLoops {
    /// The schedule dimension of the fused loops.
    pub level: usize,
    /// The fused statements, each with its shift (in iterations of the
    /// fused loop).
    pub shifts: Vec<(String, i64)>,
}

/// The schedule the code follows, with where it comes from and why.
#[derive(Debug, Clone)]
pub struct Chosen {
    /// Statement instances to times, restricted to the domain.
    pub map: UnionMap,
    /// Its origin.
    pub origin: Origin,
    /// One line: why this one.
    pub reason: String,
    /// The loop nest scanning `map`, when the choice generated it.
    pub loops: Option<Node>,
    /// Whether the reason is the scheduler's work limit (a bound on the
    /// compile time, not a property of the kernel: a longer run might
    /// have found a schedule with more parallel outer loops).
    pub limited: bool,
    /// Where the schedule fuses loops ([`Origin::Fused`]): the loops
    /// inside the fused ones run on one thread (see
    /// [`crate::Front::parallel_in`]).
    pub fused: Option<FusedLoops>,
}

/// The model's (original) schedule, restricted to the domain.
pub fn original_schedule(model: &scop::Model) -> Result<UnionMap> {
    Ok(model.schedule().intersect_domain(model.domain())?)
}

/// The scheduler's schedule for the model's dependences (all flow, anti
/// and output dependences as validity), restricted to the domain, checked
/// to respect every dependence. `budget`: the scheduler's operation limit.
pub fn scheduler_schedule(model: &scop::Model, budget: Option<u64>) -> Result<UnionMap> {
    let deps = crate::parallel::dependences(model)?;
    checked_schedule(model, &deps, &computed(model, &deps, budget, false)?)
}

/// The model's dependences ([`crate::parallel::dependences`]), computed
/// once per kernel: the choice, the distribution in
/// [`crate::prepare_with`] and the workers' parallel test share them.
pub(crate) fn cached_deps<'a>(
    model: &scop::Model,
    cell: &'a std::cell::OnceCell<UnionMap>,
) -> Result<&'a UnionMap> {
    if let Some(d) = cell.get() {
        return Ok(d);
    }
    let d = crate::parallel::dependences(model)?;
    Ok(cell.get_or_init(|| d))
}

/// The dependences (through `cell`) and the loops of the original
/// schedule `orig`: independent, so the dependences are computed on a
/// second thread while the loops are generated, where
/// [`crate::pipeline::compile_threads`] allows it (the same answers as one
/// after the other).
fn deps_and_loops<'a>(
    model: &scop::Model,
    cell: &'a std::cell::OnceCell<UnionMap>,
    orig: &UnionMap,
) -> Result<(&'a UnionMap, Node)> {
    if cell.get().is_some() || crate::pipeline::compile_threads() < 2 {
        let deps = cached_deps(model, cell)?;
        return Ok((deps, crate::pipeline::loops(model, orig)?));
    }
    let (deps, loops) = std::thread::scope(|s| {
        let side = s.spawn(|| crate::parallel::dependences(model));
        let loops = crate::pipeline::loops(model, orig);
        let deps = side.join().unwrap_or_else(|_| {
            Err(Error::Internal(
                "the dependence analysis panicked on its thread".into(),
            ))
        });
        (deps, loops)
    });
    let (deps, loops) = (deps?, loops?);
    Ok((cell.get_or_init(|| deps), loops))
}

/// The scheduler's schedule tree for the dependences `deps`: validity,
/// coincidence and proximity are all of them (as `poly schedule`).
/// `outer_parallel`: stop with [`scheduler::Error::NoOuterParallel`] as
/// soon as the tree is known to have no parallel outer loop
/// ([`scheduler::Options::outer_parallel`]; the tree is otherwise the same).
fn computed(
    model: &scop::Model,
    deps: &UnionMap,
    budget: Option<u64>,
    outer_parallel: bool,
) -> Result<scheduler::Schedule> {
    let none = || UnionMap::empty(model.domain().params().to_vec());
    let constraints = |all: UnionMap| {
        scheduler::ScheduleConstraints {
            domain: model.domain().clone(),
            context: Some(model.context().clone()),
            validity: all.clone(),
            coincidence: all.clone(),
            proximity: all,
            condition: none(),
            conditional_validity: none(),
        }
        .aligned()
        .map_err(Error::Scheduler)
    };
    if outer_parallel {
        // The scheduler's test before any row depends on the dependences'
        // points only: asked on them as they are, it spares their
        // coalescing where it stops the run (within the run's limit; past
        // it, or on an error, the run goes on as before).
        let sc = constraints(deps.clone())?;
        let stop = presburger::budget::with_budget(budget.unwrap_or(u64::MAX), || {
            scheduler::no_outer_parallel(&sc)
        });
        if matches!(stop, Ok(true)) {
            return Err(Error::Scheduler(scheduler::Error::NoOuterParallel));
        }
    }
    let all = presburger::budget::with_budget(200_000_000, || deps.coalesce())?;
    let sc = constraints(all)?;
    let opts = scheduler::Options {
        budget,
        outer_parallel,
        ..scheduler::Options::default()
    };
    scheduler::compute_schedule(&sc, &opts).map_err(Error::Scheduler)
}

/// The union map of a schedule tree, restricted to the domain, when it
/// respects the dependences `deps`.
fn checked_schedule(
    model: &scop::Model,
    deps: &UnionMap,
    s: &scheduler::Schedule,
) -> Result<UnionMap> {
    let map = s
        .to_union_map()
        .map_err(Error::Scheduler)?
        .intersect_domain(model.domain())?;
    if !crate::parallel::respects(model, deps, &map)? {
        return Err(Error::Internal(
            "the scheduler's schedule violates a dependence".into(),
        ));
    }
    Ok(map)
}

/// The schedule by `policy` for the code that runs on
/// [`crate::default_threads`] threads (`poly run`'s default; see the
/// module documentation for [`Policy::Auto`]).
pub fn choose(f: &scop::ast::Function, model: &scop::Model, policy: Policy) -> Result<Chosen> {
    choose_for(f, model, policy, crate::pipeline::default_threads())
}

/// The schedule by `policy` for the code that runs on `threads` threads
/// (rule 4 of [`Policy::Auto`] fuses sweeps on one thread only).
pub fn choose_for(
    f: &scop::ast::Function,
    model: &scop::Model,
    policy: Policy,
    threads: usize,
) -> Result<Chosen> {
    choose_with(
        f,
        model,
        policy,
        threads,
        &std::cell::OnceCell::new(),
        &Default::default(),
    )
}

/// [`choose_for`] with the dependences in `deps` (computed there if
/// needed); `orig_par` receives the answers of the parallel test
/// ([`crate::parallel::parallel_at`]) the choice asked of the original
/// schedule (for [`crate::Front::parallel_in`] when the original is chosen).
pub(crate) fn choose_with(
    f: &scop::ast::Function,
    model: &scop::Model,
    policy: Policy,
    threads: usize,
    deps: &std::cell::OnceCell<UnionMap>,
    orig_par: &std::cell::RefCell<crate::parallel::Answers>,
) -> Result<Chosen> {
    choose_bounded(
        f,
        model,
        policy,
        threads,
        (deps, orig_par),
        Some(SCHEDULER_BUDGET),
        true,
    )
}

/// [`choose_with`] with the scheduler's work limit `budget`; `bound`: the
/// scheduler is not run where [`crate::coverable`] shows that it cannot
/// cover more statements than the original (the tests compare with
/// `false` and no limit).
fn choose_bounded(
    f: &scop::ast::Function,
    model: &scop::Model,
    policy: Policy,
    threads: usize,
    (deps, orig_par): (
        &std::cell::OnceCell<UnionMap>,
        &std::cell::RefCell<crate::parallel::Answers>,
    ),
    budget: Option<u64>,
    bound: bool,
) -> Result<Chosen> {
    let original = |reason: String, loops: Option<Node>| original_chosen(model, reason, loops);
    match policy {
        Policy::Original => return original("requested".into(), None),
        Policy::Scheduler => {
            let deps = cached_deps(model, deps)?;
            let tree = computed(model, deps, scheduler::Options::default().budget, false)?;
            return Ok(Chosen {
                map: checked_schedule(model, deps, &tree)?,
                origin: Origin::Scheduler,
                reason: "requested".into(),
                loops: None,
                limited: false,
                fused: None,
            });
        }
        Policy::Fused => {
            let deps = cached_deps(model, deps)?;
            let fu = crate::fuse::fused(model, deps, None, false)?
                .ok_or_else(|| Error::Usage("no loops to fuse".into()))?;
            if !crate::parallel::respects(model, deps, &fu.map)? {
                return Err(Error::Internal(
                    "the fused schedule violates a dependence".into(),
                ));
            }
            return Ok(Chosen {
                reason: "requested".into(),
                ..fused_chosen(fu, None, String::new())
            });
        }
        Policy::Auto => {}
    }
    let n = model.statements().len();
    let orig = original_schedule(model)?;
    let (deps, orig_loops) = deps_and_loops(model, deps, &orig)?;
    let cov_o = coverage(deps, &orig, &orig_loops, &mut orig_par.borrow_mut());
    if cov_o == n {
        return original("its outer loops are parallel".into(), Some(orig_loops));
    }
    let kept = against_scheduler(f, model, deps, &orig_loops, (cov_o, n), budget, bound)?;
    if kept.origin == Origin::Scheduler {
        return Ok(kept);
    }
    if threads > 1 {
        // the fused loop would run on one thread: not asked (rule 4)
        if !crate::fuse::has_sequences(model) {
            return Ok(kept);
        }
        return Ok(Chosen {
            reason: format!(
                "{}; sweeps inside an enclosing loop are fused for one thread only (fused, they run on one thread; apart, their parallel loops run on {threads})",
                kept.reason
            ),
            ..kept
        });
    }
    fusion_or(model, deps, kept)
}

/// The rest of [`choose_bounded`] under [`Policy::Auto`] when the
/// original's outer loops cover `cov.0` of the `cov.1` statements: the
/// scheduler's schedule where the module's rule adopts it, else the
/// original with the reason.
fn against_scheduler(
    f: &scop::ast::Function,
    model: &scop::Model,
    deps: &UnionMap,
    orig_loops: &Node,
    (cov_o, n): (usize, usize),
    budget: Option<u64>,
    bound: bool,
) -> Result<Chosen> {
    let original = |reason: String, loops: Option<Node>| original_chosen(model, reason, loops);
    let orig_loops = orig_loops.clone();
    if bound {
        let (names, dims) = statement_shapes(model);
        // (bounded; past the limit, or on any error, the scheduler runs)
        let hopeless = presburger::budget::with_budget(BOUND_BUDGET, || {
            crate::coverable::covers_at_most(deps, &names, &dims, cov_o)
        });
        if hopeless.unwrap_or(false) {
            return original(
                format!("no schedule puts more than the original's {cov_o} of {n} statements under a parallel outer loop"),
                Some(orig_loops),
            );
        }
    }
    let not_parallel = || {
        original(
            "the scheduler's outer loops are not parallel either".into(),
            Some(orig_loops.clone()),
        )
    };
    let tree = match computed(model, deps, budget, true) {
        Ok(t) => t,
        Err(Error::Scheduler(scheduler::Error::NoOuterParallel)) => return not_parallel(),
        Err(Error::Scheduler(scheduler::Error::Budget)) => {
            return Ok(Chosen {
                limited: true,
                ..original(
                    format!(
                        "the original puts {cov_o} of {n} statements under a parallel outer loop; the scheduler, which might put more, stopped at its compile-time work limit ({} engine operations)",
                        budget.map_or("no".into(), |b| b.to_string())
                    ),
                    Some(orig_loops),
                )?
            })
        }
        Err(e) => return original(format!("no scheduler schedule ({e})"), Some(orig_loops)),
    };
    if !tree.outer_coincident() {
        return not_parallel();
    }
    let new = match checked_schedule(model, deps, &tree) {
        Ok(m) => m,
        Err(e) => return original(format!("no scheduler schedule ({e})"), Some(orig_loops)),
    };
    let new_loops = crate::pipeline::loops(model, &new)?;
    let cov_s = coverage(deps, &new, &new_loops, &mut Default::default());
    if cov_s <= cov_o {
        return original(
            format!("the scheduler's puts {cov_s} of {n} statements under a parallel outer loop, the original {cov_o}"),
            Some(orig_loops),
        );
    }
    let k = Kernel::new(f, model)?;
    let (Ok(a), Ok(b)) = (
        crate::function::compile(&k, &orig_loops),
        crate::function::compile(&k, &new_loops),
    ) else {
        return original(
            "the scheduler's loops do not compile as well".into(),
            Some(orig_loops),
        );
    };
    let (qa, qb) = (quality(&a.notes), quality(&b.notes));
    if qb.fast < qa.fast || qb.strided > qa.strided {
        return original(
            format!(
                "the scheduler's code has {} vectorized or tiled and {} strided innermost loops, the original {} and {}",
                qb.fast, qb.strided, qa.fast, qa.strided
            ),
            Some(orig_loops),
        );
    }
    if b.strided > a.strided {
        return original(
            format!(
                "the scheduler's innermost loops walk {} arrays at a stride other than 0 or 1, the original's {}",
                b.strided, a.strided
            ),
            Some(orig_loops),
        );
    }
    Ok(Chosen {
        map: new,
        origin: Origin::Scheduler,
        reason: format!(
            "{cov_s} of {n} statements under a parallel outer loop (the original: {cov_o}), no fewer vectorized loops"
        ),
        loops: Some(new_loops),
        limited: false,
        fused: None,
    })
}

/// The original schedule, chosen for `reason`, with its loops when they
/// are already built.
fn original_chosen(model: &scop::Model, reason: String, loops: Option<Node>) -> Result<Chosen> {
    Ok(Chosen {
        map: original_schedule(model)?,
        origin: Origin::Original,
        reason,
        loops,
        limited: false,
        fused: None,
    })
}

/// `kept` (the original, with its reason), or the fused schedule
/// ([`crate::fuse`]) where its runs sweep at most half the arrays their
/// nests sweep apart ([`FUSION_GAIN`]), keep their inner loops
/// ([`crate::fuse::keeps_inner_loops`], a stand-in, on the statements,
/// for the comparison of compiled code of rule 3: the test
/// `the_fusion_proxy_agrees_with_the_compiled_code` holds it to that) and
/// respect every dependence. Only the chosen candidate's loops are
/// generated.
fn fusion_or(model: &scop::Model, deps: &UnionMap, kept: Chosen) -> Result<Chosen> {
    let fu = match presburger::budget::with_budget(FUSION_BUDGET, || {
        crate::fuse::fused(model, deps, Some(FUSION_GAIN), true)
    }) {
        Ok(Some(fu)) => fu,
        _ => return Ok(kept),
    };
    let respected = presburger::budget::with_budget(FUSION_BUDGET, || {
        crate::parallel::respects(model, deps, &fu.map)
    });
    if !respected.unwrap_or(false) {
        return Ok(kept);
    }
    let Ok(loops) = crate::pipeline::loops(model, &fu.map) else {
        return Ok(kept);
    };
    let (apart, together) = fu.swept;
    let shifts: Vec<String> = fu
        .shifts
        .iter()
        .map(|(s, k)| format!("{s} {k:+}"))
        .collect();
    let reason = format!(
        "{}; its sweeps fused by rows for one thread ({}): {together} arrays swept per iteration of the enclosing loop instead of {apart}",
        kept.reason,
        shifts.join(", ")
    );
    Ok(fused_chosen(fu, Some(loops), reason))
}

fn fused_chosen(fu: crate::fuse::Fusion, loops: Option<Node>, reason: String) -> Chosen {
    Chosen {
        map: fu.map,
        origin: Origin::Fused,
        reason,
        loops,
        limited: false,
        fused: Some(FusedLoops {
            level: fu.level,
            shifts: fu.shifts,
        }),
    }
}

/// What the notes of compiled code say of its innermost loops.
struct Quality {
    /// Vectorized loops and tiled contractions.
    fast: usize,
    /// Scalar loops with a strided access.
    strided: usize,
}

fn quality(notes: &[String]) -> Quality {
    Quality {
        fast: notes
            .iter()
            .filter(|n| n.contains("vectorized") || n.contains("contraction"))
            .count(),
        strided: notes
            .iter()
            .filter(|n| {
                !n.contains("vectorized")
                    && n.contains("stride")
                    && !n.ends_with(crate::transpose::EDGE)
            })
            .count(),
    }
}

/// The number of statements inside a top-level nest of `loops` whose outer
/// loop carries no dependence among the nest's statements (a statement
/// also in a nest that is not parallel does not count). `answers`: the
/// parallel tests asked, per statements and dimension.
fn coverage(
    deps: &UnionMap,
    schedule: &UnionMap,
    loops: &Node,
    answers: &mut crate::parallel::Answers,
) -> usize {
    let (mut covered, mut not) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    // (nests of the same statements at the same depth share their answer;
    // only their outer dimension is asked about)
    for n in crate::function::top_level(loops) {
        let mut st = Vec::new();
        crate::function::statements_of(&n, &mut st);
        st.sort();
        st.dedup();
        let par = crate::function::outer_dimension(&n).is_some_and(|l| {
            *answers.entry((st.clone(), l)).or_insert_with(|| {
                crate::parallel::parallel_at(deps, schedule, &st, l).unwrap_or(false)
            })
        });
        if par { &mut covered } else { &mut not }.extend(st);
    }
    covered.difference(&not).count()
}

/// [`coverage`] as first written: every dimension of each nest's
/// statements by [`crate::parallel::parallel_dims_of`] (the oracle of the
/// tests).
/// The statements' names and iterator counts, as `coverable` takes them.
fn statement_shapes(model: &scop::Model) -> (Vec<String>, Vec<usize>) {
    let st = model.statements();
    (
        st.iter().map(|s| s.name.clone()).collect(),
        st.iter().map(|s| s.iterators.len()).collect(),
    )
}

#[cfg(test)]
fn coverage_reference(deps: &UnionMap, schedule: &UnionMap, loops: &Node) -> usize {
    let (mut covered, mut not) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    for n in crate::function::top_level(loops) {
        let mut st = Vec::new();
        crate::function::statements_of(&n, &mut st);
        st.sort();
        st.dedup();
        let par = crate::function::outer_dimension(&n).is_some_and(|l| {
            crate::parallel::parallel_dims_of(deps, schedule, Some(&st))
                .is_ok_and(|p| p.get(l) == Some(&true))
        });
        if par { &mut covered } else { &mut not }.extend(st);
    }
    covered.difference(&not).count()
}

#[cfg(test)]
mod tests;
