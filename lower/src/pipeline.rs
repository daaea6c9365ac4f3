//! From C text to a loop nest: the front end's model, the schedule (the
//! original one or the scheduler's, [`crate::choice`]), and AST
//! generation.

use ast::Node;
use scop::ast::Function;

use crate::choice::{Chosen, Policy};
use crate::error::{Error, Result};
use crate::kernel::Kernel;

/// Work limit of AST generation (engine operations).
const BUDGET: u64 = 500_000_000;

/// A parsed kernel with its model and the schedule its code follows.
///
/// A snapshot, built by [`front_for`] (or [`front`], [`front_with`]): its
/// fields are public for reading, and none of them is to be edited. What
/// it caches is derived from them: the front end's [`scop::Scop`] of
/// [`Front::function`] (the versioning's model), the model's dependences
/// and the parallel tests' answers under [`Front::schedule`]. For another
/// function, model or schedule build another `Front`. An edited function
/// is detected where the cached `Scop` is used ([`Front::scop`],
/// [`version`]: an [`Error::Usage`](crate::Error::Usage)), so that the
/// run-time check never comes from another program than the one run.
#[derive(Debug, Clone)]
pub struct Front {
    /// The syntax tree (signature, for the argument vector and the interpreter).
    pub function: Function,
    /// The polyhedral model.
    pub model: scop::Model,
    /// The schedule in use, where it comes from and why.
    pub schedule: Chosen,
    /// The model's flow, anti and output dependences, once computed.
    deps: std::cell::OnceCell<presburger::UnionMap>,
    /// Entries of [`parallel_dims`](crate::parallel_dims) of the schedule
    /// in use per set of statements and dimension, once computed.
    par: std::cell::RefCell<crate::parallel::Answers>,
    /// The model of `function` before its engine form (the versioning's
    /// assumptions, [`version`], start from it).
    scop: scop::Scop,
    /// `function` as `scop` was built from it.
    scop_of: Function,
    /// The versioning's analysis of `scop` ([`Front::assumptions`]), once
    /// computed.
    checks: std::cell::OnceCell<std::result::Result<assumptions::Assumptions, String>>,
}

impl Front {
    /// The model's flow, anti and output dependences (computed once: the
    /// schedule choice, `prepare`'s distribution and the workers' parallel
    /// test share them).
    pub fn dependences(&self) -> Result<&presburger::UnionMap> {
        crate::choice::cached_deps(&self.model, &self.deps)
    }

    /// [`parallel_in`] for the schedule in use, from the cached dependences
    /// (false where the times of the piece's statements end before `l` or
    /// lie in several spaces); false for a loop inside fused loops ([`Chosen::fused`]): the fused
    /// loop carries the dependences between its nests, and the loops in it
    /// are single rows, whose work as a job of their own would be about
    /// the cost of its dispatch.
    pub fn parallel_in(&self, piece: &Node, l: usize) -> bool {
        let mut st = Vec::new();
        crate::function::statements_of(piece, &mut st);
        st.sort();
        st.dedup();
        if let Some(fu) = &self.schedule.fused {
            if l > fu.level && st.iter().any(|s| fu.shifts.iter().any(|(n, _)| n == s)) {
                return false;
            }
        }
        let key = (st, l);
        if let Some(p) = self.par.borrow().get(&key) {
            return *p;
        }
        // (dimension `l` alone)
        let answer = times_reach(&self.schedule.map, &key.0, l)
            && self
                .dependences()
                .and_then(|d| crate::parallel::parallel_at(d, &self.schedule.map, &key.0, l))
                .unwrap_or(false);
        self.par.borrow_mut().insert(key, answer);
        answer
    }

    /// The versioning's analysis of [`Front::scop`]
    /// ([`assumptions::analyze`] under the default limits; its error as
    /// text), computed once: by [`front_versioned`] on a second thread
    /// while the schedule is chosen, else here when first asked.
    pub fn assumptions(&self) -> Result<&std::result::Result<assumptions::Assumptions, String>> {
        let scop = self.scop()?;
        Ok(self.checks.get_or_init(|| analyzed(scop)))
    }

    /// The model of [`Front::function`] as the front end built it (before
    /// its engine form, [`Front::model`]); an error when the function was
    /// edited since (see [`Front`]).
    pub fn scop(&self) -> Result<&scop::Scop> {
        if self.function != self.scop_of {
            return Err(Error::Usage(format!(
                "the function {} was edited after its model was built: build a new Front",
                self.function.name
            )));
        }
        Ok(&self.scop)
    }
}

/// The number of threads `poly run` uses by default, and so the one the
/// schedule is chosen for by default ([`front`], [`front_with`]): the
/// number of cores (1 when unknown).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The threads one compilation may use: [`default_threads`], or 1 where
/// the environment variable `POLY_COMPILE_THREADS` is `1` (to measure
/// the compilation's work on one thread). With two or more, independent
/// analyses run side by side: the dependences while the original
/// schedule's loops are generated, and in [`front_versioned`] the
/// versioning's analysis (the answers are the same as one after the
/// other).
pub fn compile_threads() -> usize {
    match std::env::var("POLY_COMPILE_THREADS").ok().as_deref() {
        Some("1") => 1,
        _ => default_threads(),
    }
}

/// The versioning's analysis as [`Front::assumptions`] keeps it.
fn analyzed(scop: &scop::Scop) -> std::result::Result<assumptions::Assumptions, String> {
    assumptions::analyze(scop, &assumptions::Limits::default()).map_err(|e| e.to_string())
}

/// Parses and models a kernel; the schedule by [`Policy::Auto`] for
/// [`default_threads`] threads.
pub fn front(src: &str) -> Result<Front> {
    front_with(src, Policy::Auto)
}

/// Parses and models a kernel; the schedule by `policy` for
/// [`default_threads`] threads.
pub fn front_with(src: &str, policy: Policy) -> Result<Front> {
    front_for(src, policy, default_threads())
}

/// Parses and models a kernel; the schedule by `policy` for code that
/// runs on `threads` threads ([`Policy::Auto`] fuses sweeps inside an
/// enclosing loop for one thread only: the fused loop carries their
/// dependences, where apart each sweep is a parallel loop).
pub fn front_for(src: &str, policy: Policy, threads: usize) -> Result<Front> {
    front_checked(src, policy, threads, false)
}

/// [`front_for`] with the versioning's analysis ([`Front::assumptions`],
/// which [`version`] reads) computed on a second thread while the
/// schedule is chosen, where [`compile_threads`] allows it (else, as
/// after [`front_for`], where first asked). What `poly run` compiles
/// with.
pub fn front_versioned(src: &str, policy: Policy, threads: usize) -> Result<Front> {
    front_checked(src, policy, threads, true)
}

fn front_checked(src: &str, policy: Policy, threads: usize, checked: bool) -> Result<Front> {
    let function = scop::parse_kernel(src)?;
    let scop = scop::build_from_ast(&function)?;
    let model = scop::Model::from_scop(&scop)?;
    let deps = std::cell::OnceCell::new();
    // (the choice's parallel tests of the original schedule, kept when the
    // original is chosen: the same questions as `Front::parallel_in`'s)
    let orig_par = Default::default();
    let checks = std::cell::OnceCell::new();
    let side = checked && compile_threads() > 1;
    let schedule = std::thread::scope(|s| {
        let analysis = side.then(|| s.spawn(|| analyzed(&scop)));
        let schedule =
            crate::choice::choose_with(&function, &model, policy, threads, &deps, &orig_par);
        // (a panic on that thread: analyzed again where first asked)
        if let Some(Ok(a)) = analysis.map(|h| h.join()) {
            let _ = checks.set(a);
        }
        schedule
    })?;
    let par = match schedule.origin {
        crate::choice::Origin::Original => orig_par,
        _ => Default::default(),
    };
    Ok(Front {
        scop_of: function.clone(),
        function,
        model,
        schedule,
        deps,
        par,
        scop,
        checks,
    })
}

/// The schedule the code of `f` follows (statement instances to times,
/// restricted to the domain).
pub fn schedule(f: &Front) -> Result<presburger::UnionMap> {
    Ok(f.schedule.map.clone())
}

/// The loop nest scanning `schedule` under the model's context.
pub fn loops(model: &scop::Model, schedule: &presburger::UnionMap) -> Result<Node> {
    let ctx = model.context().clone();
    Ok(presburger::budget::with_budget(BUDGET, || {
        ast::generate(schedule, &ctx)
    })?)
}

/// Everything up to the loop nest and the lowering's view of the kernel.
pub fn kernel_and_loops(f: &Front) -> Result<(Kernel, Node)> {
    let node = match &f.schedule.loops {
        Some(n) => n.clone(),
        None => loops(&f.model, &f.schedule.map)?,
    };
    Ok((Kernel::new(&f.function, &f.model)?, node))
}

/// Whether loop `c_l` of the top-level nest `piece` carries no dependence
/// among the nest's statements (false when the test fails, and where
/// their times end before `l` or lie in several spaces).
pub fn parallel_in(
    model: &scop::Model,
    schedule: &presburger::UnionMap,
    piece: &Node,
    l: usize,
) -> bool {
    let mut st = Vec::new();
    crate::function::statements_of(piece, &mut st);
    times_reach(schedule, &st, l)
        && crate::parallel::parallel_dims(model, schedule, Some(&st))
            .is_ok_and(|p| p.get(l) == Some(&true))
}

/// Whether the times of the statements `st` under `schedule` lie in one
/// space of more than `l` dimensions: otherwise dimension `l` is not
/// parallel for them. A statement whose times end before `l` is in no loop
/// at `l`, and the differences of times of several spaces are not taken
/// (`crate::parallel::time_deltas`), so their dependences would go
/// unseen.
fn times_reach(schedule: &presburger::UnionMap, st: &[String], l: usize) -> bool {
    let maps = schedule.maps();
    let mut ranges = maps
        .iter()
        .filter(|m| {
            m.space()
                .domain
                .as_ref()
                .and_then(|t| t.name.as_ref())
                .is_some_and(|n| st.contains(n))
        })
        .map(|m| m.space());
    let Some(first) = ranges.next() else {
        return false;
    };
    first.n_out() > l && ranges.all(|s| s.range == first.range)
}

/// Unroll-and-jam factor of [`prepare`]: 1, off. The copies of a statement
/// each load their shared operands and store their rows, so on gemm
/// (`i-k-j`, 1024³, one thread) a factor of 4 measured 1.1-1.5× slower than
/// none and 2 the same (`benches/README.md`); it needs loads shared between
/// copies and the result rows kept in registers to pay.
pub const JAM: i64 = 1;

/// [`kernel_and_loops`] then unroll-and-jam by [`JAM`] (the code `poly run`
/// and `poly compile` use).
pub fn prepare(f: &Front) -> Result<(Kernel, Node, crate::jam::Copies)> {
    prepare_with(f, JAM)
}

/// [`kernel_and_loops`], distribution of parallel loops around the
/// contraction nests they contain (tiled by the lowering), interchange of
/// reduction pairs whose inner loop becomes unit-stride, then
/// unroll-and-jam by `factor` of the other top-level parallel loops whose
/// statements all write along their innermost loop.
pub fn prepare_with(f: &Front, factor: i64) -> Result<(Kernel, Node, crate::jam::Copies)> {
    let (k, node) = kernel_and_loops(f)?;
    // the dependences behind the parallel test only when a loop asks, once
    // per set of statements
    let par = |n: &Node, l: usize| f.parallel_in(n, l);
    let node = crate::contract::distribute(&k, &node, &par);
    let node = crate::contract::interchange(&k, &node);
    let node = crate::wave::wave_jam(&node, &|n: &Node, l: usize| wave_skew(f, n, l));
    let mut copies = crate::jam::Copies::new();
    if factor <= 1 {
        let node = crate::unroll::unroll_column_writes(&k, &crate::split::split_guards(&node));
        return Ok((k, node, copies));
    }
    let worth = |n: &Node, l: usize| {
        !crate::contract::is_contraction(&k, n)
            && crate::jam::writes_move_inside(&k, n)
            && par(n, l)
    };
    let jammed = crate::jam::jam_outer(&node, factor, &worth, &mut copies);
    let node = crate::unroll::unroll_column_writes(&k, &crate::split::split_guards(&jammed));
    Ok((k, node, copies))
}

/// The skew of the wavefront jam (module `wave`) of the loop pair rooted
/// at `n` (loops `l`, `l + 1`), or `None`: both loops must carry a
/// dependence (the inner one at a distance of at most 3 iterations: a
/// recurrence, scalar; an outer loop that carries none is better run in
/// parallel), and the skew is one more than
/// the least in `0..=3` that keeps every dependence among the pair's
/// statements.
fn wave_skew(f: &Front, n: &Node, l: usize) -> Option<i64> {
    let Node::For { body: inner, .. } = n else {
        return None;
    };
    if f.parallel_in(n, l) || f.parallel_in(inner, l + 1) {
        return None;
    }
    let mut st = Vec::new();
    crate::function::statements_of(n, &mut st);
    st.sort();
    st.dedup();
    let deps = f.dependences().ok()?;
    let deltas = crate::parallel::time_deltas_of(deps, &f.schedule.map, &st).ok()?;
    // a loop whose dependences are all 4 iterations or more apart may be
    // vectorized as it is
    if !crate::parallel::carries_within(&deltas, l + 1, 3).unwrap_or(false) {
        return None;
    }
    (0..=3)
        .find(|s| crate::parallel::skew_keeps(&deltas, l, *s).unwrap_or(false))
        .map(|s| s + 1)
}

/// Versioning (issue 19): which code `poly run` runs on the inputs of
/// `state` (the interpreter's initial state at the given parameter
/// values). The kernel's run-time check (`assumed ∧ ¬invalid ∧ no-alias`,
/// the `assumptions` crate) is evaluated at the state's integer parameters
/// and the base addresses of its arrays, in 64-bit signed arithmetic where
/// an overflow fails safe: [`assumptions::Choice::Optimized`] when the
/// model is exact there, so that code generated from it computes what the
/// original program does; [`assumptions::Choice::Original`] with the
/// reason otherwise (the original program runs: the interpreter). A
/// `long` parameter outside the 32-bit range also runs the original
/// program (see [`Kernel::new`](crate::Kernel::new)).
///
/// ```
/// use std::collections::HashMap;
/// let src = "void k(int n, int s, double A[100]) {
///   for (int i = 0; i < n; i++) A[i] = A[i] + s * 2; }";
/// let front = lower::front(src).unwrap();
/// let at = |n: i64, s: i64| {
///     let ints: HashMap<String, i64> = [("n".into(), n), ("s".into(), s)].into();
///     scop::interp::initial_state(&front.function, &ints, &HashMap::new()).unwrap()
/// };
/// assert_eq!(lower::version(&front, &at(10, 3)).unwrap(), assumptions::Choice::Optimized);
/// // s * 2 wraps in int
/// assert!(matches!(lower::version(&front, &at(10, 1 << 30)).unwrap(), assumptions::Choice::Original(_)));
/// ```
pub fn version(f: &Front, state: &scop::interp::State) -> Result<assumptions::Choice> {
    // `long` arithmetic is exact in the model; the compiled code's 64-bit
    // arithmetic is proven to agree for 32-bit values (see `Kernel::new`)
    for p in &f.function.params {
        if let scop::ast::ParamKind::Int(scop::ast::IntTy::Long) = p.kind {
            let v = state.ints.get(&p.name).copied().unwrap_or(0);
            if i32::try_from(v).is_err() {
                return Ok(assumptions::Choice::Original(format!(
                    "the long parameter {} = {v} is outside the 32-bit range where the compiled code's 64-bit arithmetic is proven exact",
                    p.name
                )));
            }
        }
    }
    let analysis = f.assumptions()?;
    let values = assumptions::Values {
        params: state.ints.iter().map(|(n, v)| (n.clone(), *v)).collect(),
        bases: state
            .arrays
            .iter()
            .map(|(n, a)| (n.clone(), a.data.as_ptr() as usize as i64))
            .collect(),
    };
    Ok(match analysis {
        Ok(a) => assumptions::decide(a, &values),
        Err(e) => assumptions::Choice::Original(format!("no run-time check ({e})")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `S0` writes `a[i]`, `S1` reads `a[i - 1]` in an inner loop: the
    /// `i` loop carries a dependence from `S0` to `S1`, the `j` loop none.
    const KERNEL: &str = "void k(int N, double a[N], double b[N][N]) {
      for (int i = 1; i < N; i++) {
        a[i] = 1.0;
        for (int j = 0; j < N; j++)
          b[i][j] = a[i - 1] + 1.0;
      }
    }";

    fn call(name: &str) -> Node {
        Node::User {
            name: name.into(),
            args: Vec::new(),
        }
    }

    /// The analyses made on a second thread ([`front_versioned`], the
    /// dependences beside the loops) are those made one after the other
    /// on one thread: the same dependences, the same run-time check, the
    /// same schedule and loops.
    #[test]
    fn side_thread_answers_are_the_serial_ones() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scop/tests/kernels");
        let mut n = 0;
        for name in ["tiled_mix", "cholesky", "fdtd_2d", "trmm"] {
            let src = std::fs::read_to_string(format!("{dir}/{name}.c")).unwrap();
            let f = front_versioned(&src, Policy::Auto, 2).unwrap();
            // one thread: the model's dependences and analysis made here
            let model = scop::Model::from_source(&src).unwrap();
            let deps = crate::parallel::dependences(&model).unwrap();
            assert!(f.dependences().unwrap().is_equal(&deps).unwrap(), "{name}");
            let serial = analyzed(f.scop().unwrap());
            let (Ok(a), Ok(b)) = (f.assumptions().unwrap(), &serial) else {
                panic!("{name}: no analysis");
            };
            assert_eq!(a.check, b.check, "{name}");
            let g = front_for(&src, Policy::Auto, 2).unwrap();
            assert!(f.schedule.map.is_equal(&g.schedule.map).unwrap(), "{name}");
            assert_eq!(
                kernel_and_loops(&f).unwrap().1,
                kernel_and_loops(&g).unwrap().1,
                "{name}"
            );
            n += 1;
        }
        assert_eq!(n, 4);
    }

    /// `f` under another schedule (nothing cached).
    fn under(f: &Front, schedule: &str) -> Front {
        let mut g = f.clone();
        let map: presburger::UnionMap = schedule.parse().unwrap();
        g.schedule.map = map.intersect_domain(f.model.domain()).unwrap();
        g.schedule.fused = None;
        g.par = Default::default();
        g
    }

    /// Past the end of the times of the piece's statements a dimension is
    /// not parallel, even where another statement's times go on; times of
    /// several spaces (whose differences are not taken) are not parallel
    /// either. Within one space the answers are [`parallel_in`]'s (the
    /// full dimension vector), and that of the same times padded.
    #[test]
    fn parallel_in_is_false_past_the_times_and_across_spaces() {
        let f = front_for(KERNEL, Policy::Original, 1).unwrap();
        let both = Node::Block(vec![call("S0"), call("S1")]);
        let (s0, s1) = (call("S0"), call("S1"));
        // one space: S0 [i, 0, 0], S1 [i, 1, j]
        let one = under(&f, "[N] -> { S0[i] -> [i, 0, 0]; S1[i, j] -> [i, 1, j] }");
        let mut answers = Vec::new();
        for (piece, l) in [(&both, 0), (&s1, 2), (&s0, 2), (&both, 3), (&s1, 3)] {
            let got = one.parallel_in(piece, l);
            assert_eq!(
                got,
                parallel_in(&one.model, &one.schedule.map, piece, l),
                "{l}"
            );
            answers.push(got);
        }
        // carried by i; none at j; S0's times (padded) reach dimension 2;
        // nothing past the times
        assert_eq!(answers, [false, true, true, false, false]);
        // several spaces: S0 [i], S1 [i, j]
        let two = under(&f, "[N] -> { S0[i] -> [i]; S1[i, j] -> [i, j] }");
        for (piece, l, want) in [
            (&both, 0, false),
            (&s1, 1, true),
            (&s0, 1, false),
            (&s1, 2, false),
        ] {
            assert_eq!(two.parallel_in(piece, l), want, "{l}");
            assert_eq!(
                parallel_in(&two.model, &two.schedule.map, piece, l),
                want,
                "{l}"
            );
        }
    }

    /// A `Front` whose function was edited does not hand out the model of
    /// the one it was built from, nor version runs with it.
    #[test]
    fn an_edited_function_is_refused() {
        let f = front_for(KERNEL, Policy::Original, 1).unwrap();
        assert_eq!(
            f.scop().unwrap(),
            &scop::build_from_ast(&f.function).unwrap()
        );
        let mut g = f.clone();
        g.function.body.pop();
        assert!(matches!(g.scop(), Err(Error::Usage(_))));
        let ints: std::collections::HashMap<String, i64> = [("N".to_string(), 8)].into();
        let state = scop::interp::initial_state(&f.function, &ints, &Default::default()).unwrap();
        assert_eq!(version(&f, &state).unwrap(), assumptions::Choice::Optimized);
        assert!(matches!(version(&g, &state), Err(Error::Usage(_))));
    }
}
