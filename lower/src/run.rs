//! Running compiled kernels on the interpreter's inputs: the argument
//! vector, fresh arrays per run, the median time and the checksums.
//!
//! The arrays, local arrays and packing workspaces live in
//! [`DataBuffer`]s: each in its own mapping, on a cache line, and from
//! 2 MiB on, on transparent huge pages where the system grants them
//! (`madvise`), so that their placement in the physically indexed
//! second-level cache is the same in every process. From the allocator
//! they lay 48 bytes past a line on scattered 4 KiB pages, where gemm at
//! 1024³ ran at two speeds by process (72–76 or ~95 ms a run on an Intel
//! Xeon; `benches/README.md`, session 19, for what was and was not shown).

use std::collections::HashMap;
use std::time::Instant;

use codegen_x86::jit::DataBuffer;
use codegen_x86::JitFunction;
use scop::ast::{Function, ParamKind};

use crate::error::{Error, Result};
use crate::function::{Compiled, Piece};
use crate::kernel::{Kernel, Storage};

/// The generated function's type: it takes the argument vector.
pub type KernelFn = extern "sysv64" fn(*const i64);

/// What a run prints: the checksum lines and the median time.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// `NAME CHECKSUM` lines, one per array parameter (as `poly interp`).
    pub checksums: String,
    /// Median kernel time over the runs, in nanoseconds.
    pub median_ns: u128,
    /// Median CPU time of the calling thread over the runs, in nanoseconds
    /// (all of the kernel's CPU time when it ran on one thread; workers'
    /// time is not included). `None` if the clock is unavailable.
    pub median_cpu_ns: Option<u128>,
    /// Median CPU time of the whole process (all workers) over the runs.
    pub median_process_cpu_ns: Option<u128>,
}

/// Integer parameters and overridden double parameters from `NAME=VALUE`.
pub fn parse_assignments(
    f: &Function,
    assignments: &[String],
) -> Result<(HashMap<String, i64>, HashMap<String, f64>)> {
    let (mut ints, mut dbls) = (HashMap::new(), HashMap::new());
    for a in assignments {
        let (name, value) = a
            .split_once('=')
            .ok_or_else(|| Error::Usage(format!("expected NAME=VALUE, got `{a}`")))?;
        let p =
            f.params.iter().find(|p| p.name == name).ok_or_else(|| {
                Error::Usage(format!("`{name}` is not a parameter of {}", f.name))
            })?;
        match p.kind {
            ParamKind::Int(_) => {
                let v = value.trim().parse().map_err(|_| {
                    Error::Usage(format!("`{value}` is not an integer (for {name})"))
                })?;
                ints.insert(name.to_string(), v);
            }
            ParamKind::Double => {
                let v = value
                    .trim()
                    .parse()
                    .map_err(|_| Error::Usage(format!("`{value}` is not a number (for {name})")))?;
                dbls.insert(name.to_string(), v);
            }
            ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. } => {
                return Err(Error::Usage(format!(
                    "`{name}` is an array; it cannot be set"
                )))
            }
        }
    }
    Ok((ints, dbls))
}

/// True when every access of every executed instance stays inside its
/// array at these parameter values (exact, with the engine); the compiled
/// code has no bounds checks, so a kernel failing this runs in the
/// interpreter instead.
pub fn accesses_in_bounds(model: &scop::Model, ints: &HashMap<String, i64>) -> Result<bool> {
    let values: Vec<(String, i64)> = model
        .params()
        .iter()
        .map(|p| {
            ints.get(p)
                .map(|v| (p.clone(), *v))
                .ok_or_else(|| Error::Usage(format!("missing value for integer parameter {p}")))
        })
        .collect::<Result<_>>()?;
    let m = model.with_param_values(&values)?;
    for a in m.accesses() {
        let Some(array) = m.arrays().iter().find(|x| x.name == a.array) else {
            return Ok(false);
        };
        if !a.relation.range()?.is_subset(&array.extent)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What every run of compiled code needs: the kernel, its source function
/// and parameter values, how many runs, and how the work is shared.
#[derive(Debug, Clone, Copy)]
pub struct RunContext<'a> {
    /// The kernel the code was compiled from.
    pub kernel: &'a Kernel,
    /// Its source function (the parameters and their initial values).
    pub function: &'a Function,
    /// `NAME=VALUE` values of the parameters ([`parse_assignments`]).
    pub assignments: &'a [String],
    /// Runs to make (at least one), each from fresh inputs.
    pub repeat: usize,
    /// Threads of the team of workers (1: the calling thread only).
    pub threads: usize,
    /// An instance of a parallel loop runs on the team when its loop's
    /// previous instance took this long on one thread (0: always).
    pub min_threaded_ns: u128,
}

/// Runs the compiled kernel `repeat` times from fresh inputs; `progress`
/// hears of every run (its number and time in nanoseconds).
pub fn run(
    c: &Compiled,
    k: &Kernel,
    f: &Function,
    assignments: &[String],
    repeat: usize,
    progress: &mut dyn FnMut(usize, u128),
) -> Result<Outcome> {
    let piece = Piece {
        code: c.clone(),
        parallel: false,
        nested: None,
    };
    let cx = RunContext {
        kernel: k,
        function: f,
        assignments,
        repeat,
        threads: 1,
        min_threaded_ns: 0,
    };
    run_pieces(std::slice::from_ref(&piece), &cx, progress)
}

/// Like [`run`] for a kernel compiled in pieces ([`crate::compile_pieces`]):
/// the pieces run in order; with `cx.threads` > 1 a team of workers is
/// started once for all runs (the `workers` module) and each instance of
/// a parallel loop (a parallel piece, or a parallel loop of a piece's
/// [`crate::nested::Nest`] inside sequential loops) runs on it, its
/// iterations handed out in chunks, all done before anything else starts,
/// when the loop's previous instance took `cx.min_threaded_ns` or more on
/// one thread (estimated, when it ran on the team, as its time times the
/// workers that took part); the first instance runs on one thread unless
/// the threshold is 0. A piece with a nest runs as one function in its
/// first run and as the nest in its second, then as whichever was faster
/// in its last run (with threshold 0: always as the nest). The arrays are
/// allocated once and refilled with their initial values before each run.
pub fn run_pieces(
    pieces: &[Piece],
    cx: &RunContext,
    progress: &mut dyn FnMut(usize, u128),
) -> Result<Outcome> {
    run_with(None, pieces, cx, progress)
}

/// Like [`run_pieces`], with `whole`, the kernel as one function (the
/// one-thread code, [`crate::compile_jammed`]), for work too small to
/// share: the first run runs `whole` on the calling thread; a later run
/// runs it again while the fastest run of `whole` so far took less than
/// `sequential_ns` (`poly run`: [`SEQUENTIAL_NS`]), and runs the pieces (on the team, as
/// [`run_pieces`]) otherwise, every parallel loop's first instance then
/// on the team (its estimate starts at `cx.min_threaded_ns`). A kernel of
/// less than a millisecond gains less from a second core than the pieces
/// and the team cost (tiled_mix at N = M = 4000: 0.34 ms on two threads,
/// 0.22 ms as one function on one, on an idle 2-core Xeon).
pub fn run_adaptive(
    whole: &Compiled,
    pieces: &[Piece],
    cx: &RunContext,
    sequential_ns: u128,
    progress: &mut dyn FnMut(usize, u128),
) -> Result<Outcome> {
    run_with(Some((whole, sequential_ns)), pieces, cx, progress)
}

/// `poly run`'s threshold of [`run_adaptive`]: a kernel whose
/// one-function code ran faster than this (1 ms) on one thread keeps
/// running so.
pub const SEQUENTIAL_NS: u128 = 1_000_000;

/// [`run_pieces`] and [`run_adaptive`].
fn run_with(
    whole: Option<(&Compiled, u128)>,
    pieces: &[Piece],
    cx: &RunContext,
    progress: &mut dyn FnMut(usize, u128),
) -> Result<Outcome> {
    let RunContext {
        kernel: k,
        function: f,
        assignments,
        repeat,
        threads,
        min_threaded_ns,
    } = *cx;
    let (ints, dbls) = parse_assignments(f, assignments)?;
    let init = scop::interp::initial_state(f, &ints, &dbls)?;
    // every function: the pieces', then the leaves of their nests
    let mut codes: Vec<&Compiled> = pieces.iter().map(|p| &p.code).collect();
    let mut leaf_base = vec![0; pieces.len()];
    let mut depth = 0;
    for (i, p) in pieces.iter().enumerate() {
        if let Some(n) = &p.nested {
            leaf_base[i] = codes.len();
            codes.extend(n.leaves.iter().map(|l| &l.code));
            depth = depth.max(n.depth);
        }
    }
    // the one-function code last
    let whole_fn = whole.map(|(w, _)| {
        codes.push(w);
        codes.len() - 1
    });
    let sequential_ns = whole.map_or(0, |(_, t)| t);
    let funcs: Vec<JitFunction<KernelFn>> = codes
        .iter()
        .map(|c| Ok(JitFunction::new(&c.code)?))
        .collect::<Result<_>>()?;
    let packs: Vec<bool> = codes.iter().map(|c| c.workspace > 0).collect();
    let threads = threads.max(1);
    let lookup = |n: &str| ints.get(n).copied();
    let mut local_sizes = Vec::new();
    for l in &k.locals {
        let mut len: usize = 1;
        for d in &k.arrays[l].sizes {
            let v = d
                .eval(&lookup)
                .ok_or_else(|| Error::Usage(format!("extent of {l}")))?;
            let v =
                usize::try_from(v).map_err(|_| Error::Usage(format!("negative extent of {l}")))?;
            len = len
                .checked_mul(v)
                .filter(|&n| n <= 1 << 28)
                .ok_or_else(|| Error::Usage(format!("{l} is too large")))?;
        }
        local_sizes.push(len);
    }
    // one workspace per worker, 64-byte aligned (allocated once: the
    // packing buffers are overwritten before they are read), its pages
    // faulted in here by a write, not in the first timed run (a fresh
    // anonymous mapping reads as zeros but has no pages yet)
    let ws_bytes = codes.iter().map(|c| c.workspace).max().unwrap_or(0);
    let mut workspaces: Vec<DataBuffer> = (0..threads)
        .map(|_| {
            let mut w = DataBuffer::zeroed(ws_bytes.div_ceil(8))?;
            w.as_mut_slice().fill(0.0);
            Ok(w)
        })
        .collect::<Result<_>>()?;
    let ws_ptrs: Vec<i64> = workspaces
        .iter_mut()
        .map(|w| w.as_mut_slice().as_mut_ptr() as i64)
        .collect();
    let slots = k.slots() + depth;
    let mut sched = Schedule {
        threshold: min_threaded_ns,
        est: vec![0; funcs.len()],
        whole: vec![None; pieces.len()],
        nest: vec![None; pieces.len()],
        whole_best: None,
    };
    // the arrays and locals are allocated once and refilled before each
    // run, as the gcc harness of `../shared/run/check.py` refills its
    // arrays (see `benches/README.md`, session 12: a fresh allocation per
    // run was slower in short kernels run a few times)
    let mut arrays: Vec<(String, DataBuffer)> = f
        .params
        .iter()
        .filter(|p| {
            matches!(
                p.kind,
                ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. }
            )
        })
        .map(|p| {
            let data = init.arrays.get(&p.name).map_or(&[][..], |a| &a.data[..]);
            let mut b = DataBuffer::zeroed(data.len())?;
            b.as_mut_slice().copy_from_slice(data);
            Ok((p.name.clone(), b))
        })
        .collect::<Result<_>>()?;
    let mut locals: Vec<DataBuffer> = local_sizes
        .iter()
        .map(|&n| {
            // faulted in now, as the workspaces
            let mut l = DataBuffer::zeroed(n.max(1))?;
            l.as_mut_slice().fill(0.0);
            Ok(l)
        })
        .collect::<Result<_>>()?;
    let mut runs = |team: Option<&crate::workers::Team>| -> Result<_> {
        let mut times = Vec::new();
        let mut cpu = Vec::new();
        let mut pcpu = Vec::new();
        for run in 0..repeat.max(1) {
            let mut block: Vec<i64> = Vec::new();
            let mut ptr_slots = Vec::new();
            let mut a = 0;
            for p in &f.params {
                match p.kind {
                    ParamKind::Int(_) => block.push(init.ints[&p.name]),
                    ParamKind::Double => block.push(init.doubles[&p.name].to_bits() as i64),
                    ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. } => {
                        if run > 0 {
                            if let Some(i) = init.arrays.get(&p.name) {
                                arrays[a].1.as_mut_slice().copy_from_slice(&i.data);
                            }
                        }
                        a += 1;
                        ptr_slots.push(block.len());
                        block.push(0);
                    }
                }
            }
            if run > 0 {
                for l in locals.iter_mut() {
                    l.as_mut_slice().fill(0.0);
                }
            }
            for (s, (_, data)) in ptr_slots.iter().zip(arrays.iter_mut()) {
                block[*s] = data.as_mut_slice().as_mut_ptr() as i64;
            }
            for l in locals.iter_mut() {
                block.push(l.as_mut_slice().as_mut_ptr() as i64);
            }
            // the scalar area: written double parameters start at their value
            let mut scalars: Vec<f64> = k
                .scalars
                .iter()
                .map(|n| match k.arrays[n].storage {
                    Storage::Scalar { init: Some(_), .. } => {
                        init.doubles.get(n).copied().unwrap_or(0.0)
                    }
                    _ => 0.0,
                })
                .collect();
            scalars.push(0.0);
            block.push(scalars.as_mut_ptr() as i64);
            block.push(0);
            block.push(1);
            block.push(ws_ptrs[0]);
            block.resize(slots, 0);
            let c0 = codegen_x86::jit::thread_cpu_ns();
            let p0 = codegen_x86::jit::process_cpu_ns();
            let t = Instant::now();
            let sequential = whole_fn.filter(|_| match sched.whole_best {
                None => true,
                Some(b) => b < sequential_ns,
            });
            if let Some(w) = sequential {
                funcs[w].call((block.as_ptr(),));
                let ns = t.elapsed().as_nanos();
                sched.whole_best = Some(sched.whole_best.map_or(ns, |b| b.min(ns)));
                if sched.whole_best.is_some_and(|b| b >= sequential_ns) {
                    // the pieces next time, the parallel loops on the team
                    sched.est.fill(min_threaded_ns);
                }
            }
            for (i, piece) in pieces.iter().enumerate().filter(|_| sequential.is_none()) {
                let tp = Instant::now();
                let mut ran = Ran::Whole;
                match (team, &piece.nested) {
                    (Some(team), _) if piece.parallel => {
                        sched.instance(i, &funcs, &packs, Some(team), &mut block, false)
                    }
                    (_, Some(nest)) if sched.use_nest(i, team.is_some()) => {
                        ran = Ran::Nest;
                        let mut env = Vec::new();
                        crate::nested::walk(&nest.steps, &ints, &mut env, &mut |leaf, env| {
                            for (j, (_, v)) in env.iter().enumerate() {
                                block[crate::function::iterator_slot(k, j)] = *v;
                            }
                            let fi = leaf_base[i] + leaf;
                            if nest.leaves[leaf].parallel {
                                sched.instance(fi, &funcs, &packs, team, &mut block, true);
                            } else {
                                funcs[fi].call((block.as_ptr(),));
                            }
                            Ok(())
                        })?;
                    }
                    _ => funcs[i].call((block.as_ptr(),)),
                }
                let ns = tp.elapsed().as_nanos();
                match (ran, &piece.nested) {
                    (Ran::Nest, _) => sched.nest[i] = Some(ns),
                    (Ran::Whole, Some(_)) => sched.whole[i] = Some(ns),
                    (Ran::Whole, None) => {}
                }
            }
            times.push(t.elapsed().as_nanos());
            if let (Some(a), Some(b)) = (c0, codegen_x86::jit::thread_cpu_ns()) {
                cpu.push(b.saturating_sub(a));
            }
            if let (Some(a), Some(b)) = (p0, codegen_x86::jit::process_cpu_ns()) {
                pcpu.push(b.saturating_sub(a));
            }
            progress(run, times[run]);
        }
        Ok((times, (cpu, pcpu)))
    };
    let teamwork = pieces.iter().any(|p| p.parallel || p.nested.is_some());
    let (times, (cpu, pcpu)) = if threads > 1 && teamwork {
        crate::workers::with_team(&funcs, &ws_ptrs, slots, k.scalar_area() + 1, |t| {
            runs(Some(t))
        })?
    } else {
        runs(None)?
    };
    let median_ns = median(times);
    let median_cpu_ns = (cpu.len() == repeat.max(1)).then(|| median(cpu));
    let median_process_cpu_ns = (pcpu.len() == repeat.max(1)).then(|| median(pcpu));
    let mut checksums = String::new();
    for (name, data) in &arrays {
        checksums.push_str(&format!(
            "{name} {}\n",
            scop::interp::format_c_exp(scop::interp::checksum(data.as_slice()), 12)
        ));
    }
    Ok(Outcome {
        checksums,
        median_ns,
        median_cpu_ns,
        median_process_cpu_ns,
    })
}

/// A parallel loop that is not one of a series of instances (a parallel
/// piece, run once per run) wakes parked workers only when its last
/// instance took this long on one thread (0.5 ms); a shorter one runs on
/// the workers still awake after a recent job, if any.
const WAKE_NS: u128 = 500_000;

/// How a piece ran.
#[derive(Clone, Copy)]
enum Ran {
    Whole,
    Nest,
}

/// The run-time choices of [`run_pieces`].
struct Schedule {
    /// An instance of a parallel loop runs on the team when its
    /// predecessor's one-thread time reached this.
    threshold: u128,
    /// Per function: the estimated one-thread time of its last instance.
    est: Vec<u128>,
    /// Per piece with a nest: its last time as one function, as the nest.
    whole: Vec<Option<u128>>,
    nest: Vec<Option<u128>>,
    /// The fastest run of the one-function code so far ([`run_adaptive`]).
    whole_best: Option<u128>,
}

impl Schedule {
    /// Whether piece `i` (with a nest) runs as its nest this time (on one
    /// thread only with threshold 0: the nest as a test of itself).
    fn use_nest(&self, i: usize, team: bool) -> bool {
        if self.threshold == 0 {
            return true;
        }
        if !team {
            return false;
        }
        match (self.whole[i], self.nest[i]) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(w), Some(n)) => n < w,
        }
    }

    /// Runs one instance of the parallel loop of function `fi`: on the
    /// team or on the calling thread. `series`: one of a nest's instances,
    /// which follow each other closely (the workers, once woken, are still
    /// awake for the next), so parked workers are woken for it; a single
    /// loop wakes them only when it took [`WAKE_NS`] on one thread.
    fn instance(
        &mut self,
        fi: usize,
        funcs: &[JitFunction<KernelFn>],
        packs: &[bool],
        team: Option<&crate::workers::Team>,
        block: &mut [i64],
        series: bool,
    ) {
        let t = Instant::now();
        match team {
            Some(team) if self.est[fi] >= self.threshold => {
                let wake = series || self.threshold == 0 || self.est[fi] >= WAKE_NS;
                let w = team.run(fi, block, packs[fi], wake);
                self.est[fi] = t.elapsed().as_nanos() * w.max(1) as u128;
            }
            _ => {
                funcs[fi].call((block.as_ptr(),));
                self.est[fi] = t.elapsed().as_nanos();
            }
        }
    }
}

/// The median of timings (the mean of the middle two for an even count).
pub fn median(mut t: Vec<u128>) -> u128 {
    t.sort_unstable();
    let n = t.len();
    if n % 2 == 1 {
        t[n / 2]
    } else {
        (t[n / 2 - 1] + t[n / 2]) / 2
    }
}

/// A control for timing generated code on a shared machine: the 6×8 FMA
/// micro-kernel of [`codegen_x86::kernels::gemm_6x8`] (the `peak`
/// example's) on panels that stay in the first-level cache, timed by the
/// calling thread's CPU time. Run between the runs of a kernel, on the
/// same thread, it measures what the core gives a long FMA-bound
/// computation at that moment: on this session's virtual machine that rate
/// moved between discrete levels (~23 and ~30 GFLOP/s, against a burst
/// peak of ~37) for seconds at a time, and gemm's rate followed it
/// (`benches/README.md`, issue 20, session 20).
pub struct FmaControl {
    kernel: JitFunction<codegen_x86::kernels::Gemm6x8Fn>,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
}

impl FmaControl {
    /// Depth of the panels: 28 KiB of `a` and `b` together.
    const K: usize = 256;

    /// The kernel and its panels.
    pub fn new() -> Result<FmaControl> {
        Ok(FmaControl {
            kernel: codegen_x86::kernels::gemm_6x8(4)?,
            a: (0..6 * Self::K).map(|i| (i % 7) as f64 * 0.125).collect(),
            b: (0..8 * Self::K).map(|i| (i % 5) as f64 * 0.25).collect(),
            c: vec![0.0; 6 * 8],
        })
    }

    /// Flops of one call of the kernel.
    pub fn flops_per_call() -> f64 {
        (2 * 6 * 8 * Self::K) as f64
    }

    /// Calls the kernel `calls` times (at least once); its rate in flops
    /// per nanosecond (GFLOP/s) of the thread's CPU time, `None` if the
    /// clock is unavailable or did not move.
    pub fn rate(&mut self, calls: usize) -> Option<f64> {
        let calls = calls.max(1);
        let t0 = codegen_x86::jit::thread_cpu_ns()?;
        for _ in 0..calls {
            self.kernel.call((
                Self::K,
                self.a.as_ptr(),
                self.b.as_ptr(),
                self.c.as_mut_ptr(),
                8,
            ));
        }
        let t1 = codegen_x86::jit::thread_cpu_ns()?;
        std::hint::black_box(&self.c);
        let ns = t1.checked_sub(t0).filter(|&d| d > 0)?;
        Some(calls as f64 * Self::flops_per_call() / ns as f64)
    }

    /// Calls for about `ns` nanoseconds at ~32 GFLOP/s, between 64 calls
    /// (~50 µs) and 400 000 (~0.3 s).
    pub fn calls_for(ns: u128) -> usize {
        let calls = ns.saturating_mul(32) / Self::flops_per_call() as u128;
        calls.clamp(64, 400_000) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fma_control_measures_a_positive_rate() {
        assert_eq!(FmaControl::calls_for(0), 64);
        assert_eq!(FmaControl::calls_for(u128::MAX), 400_000);
        // 1 ms at 32 flops per ns, 24 576 flops a call
        assert_eq!(FmaControl::calls_for(1_000_000), 1302);
        let mut c = FmaControl::new().unwrap();
        let r = c.rate(64);
        if codegen_x86::jit::thread_cpu_ns().is_some() {
            // below 64 flops a cycle at 10 GHz: a rate, not an artefact
            assert!(r.is_some_and(|r| r > 0.0 && r < 640.0), "{r:?}");
        }
        // the kernel's sums: c = Σ_p a[r][p] · b[p][j], 64 times over
        let want: f64 = (0..FmaControl::K)
            .map(|p| c.a[6 * p] * c.b[8 * p])
            .sum::<f64>()
            * 64.0;
        assert!(
            (c.c[0] - want).abs() <= 1e-9 * want.abs(),
            "{} {want}",
            c.c[0]
        );
    }
}
