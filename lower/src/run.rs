//! Running compiled kernels on the interpreter's inputs: the argument
//! vector, fresh arrays per run, the median time and the checksums.

use std::collections::HashMap;
use std::time::Instant;

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
    };
    run_pieces(
        std::slice::from_ref(&piece),
        k,
        f,
        assignments,
        repeat,
        1,
        0,
        progress,
    )
}

/// Like [`run`] for a kernel compiled in pieces ([`crate::compile_pieces`]):
/// the pieces run in order, a parallel one on `threads` workers (a team
/// started once for all runs, its outer loop handed out in chunks, all
/// chunks done before the next piece: the `workers` module) once one of
/// its runs took `min_threaded_ns` or more (waking the workers costs more
/// than very short loops gain; with a positive threshold the first run is
/// on one thread).
pub fn run_pieces(
    pieces: &[Piece],
    k: &Kernel,
    f: &Function,
    assignments: &[String],
    repeat: usize,
    threads: usize,
    min_threaded_ns: u128,
    progress: &mut dyn FnMut(usize, u128),
) -> Result<Outcome> {
    let (ints, dbls) = parse_assignments(f, assignments)?;
    let init = scop::interp::initial_state(f, &ints, &dbls)?;
    let funcs: Vec<JitFunction<KernelFn>> = pieces
        .iter()
        .map(|p| Ok(JitFunction::new(&p.code.code)?))
        .collect::<Result<_>>()?;
    let threads = threads.max(1);
    let mut piece_ns = vec![0u128; funcs.len()];
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
    // packing buffers are overwritten before they are read)
    let ws_bytes = pieces.iter().map(|p| p.code.workspace).max().unwrap_or(0);
    let mut workspaces: Vec<Vec<f64>> = (0..threads)
        .map(|_| vec![0.0; if ws_bytes == 0 { 0 } else { ws_bytes / 8 + 8 }])
        .collect();
    let ws_ptrs: Vec<i64> = workspaces
        .iter_mut()
        .map(|w| {
            let p = w.as_mut_ptr() as usize;
            ((p + 63) & !63) as i64
        })
        .collect();
    let parallel: Vec<bool> = pieces.iter().map(|p| p.parallel).collect();
    let mut runs = |team: Option<&crate::workers::Team>| {
        let mut times = Vec::new();
        let mut cpu = Vec::new();
        let mut pcpu = Vec::new();
        let mut last: Vec<(String, Vec<f64>)> = Vec::new();
        for run in 0..repeat.max(1) {
            let mut arrays: Vec<(String, Vec<f64>)> = Vec::new();
            let mut block: Vec<i64> = Vec::new();
            let mut ptr_slots = Vec::new();
            for p in &f.params {
                match p.kind {
                    ParamKind::Int(_) => block.push(init.ints[&p.name]),
                    ParamKind::Double => block.push(init.doubles[&p.name].to_bits() as i64),
                    ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. } => {
                        let data = init
                            .arrays
                            .get(&p.name)
                            .map(|a| a.data.clone())
                            .unwrap_or_default();
                        ptr_slots.push(block.len());
                        block.push(0);
                        arrays.push((p.name.clone(), data));
                    }
                }
            }
            let mut locals: Vec<Vec<f64>> =
                local_sizes.iter().map(|&n| vec![0.0; n.max(1)]).collect();
            for (s, (_, data)) in ptr_slots.iter().zip(arrays.iter_mut()) {
                block[*s] = data.as_mut_ptr() as i64;
            }
            for l in locals.iter_mut() {
                block.push(l.as_mut_ptr() as i64);
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
            let c0 = codegen_x86::jit::thread_cpu_ns();
            let p0 = codegen_x86::jit::process_cpu_ns();
            let t = Instant::now();
            for (i, func) in funcs.iter().enumerate() {
                let tp = Instant::now();
                match team {
                    Some(team) if parallel[i] && piece_ns[i] >= min_threaded_ns => {
                        team.run(i, &block, pieces[i].code.workspace > 0)
                    }
                    _ => func.call((block.as_ptr(),)),
                }
                piece_ns[i] = tp.elapsed().as_nanos();
            }
            times.push(t.elapsed().as_nanos());
            if let (Some(a), Some(b)) = (c0, codegen_x86::jit::thread_cpu_ns()) {
                cpu.push(b.saturating_sub(a));
            }
            if let (Some(a), Some(b)) = (p0, codegen_x86::jit::process_cpu_ns()) {
                pcpu.push(b.saturating_sub(a));
            }
            progress(run, times[run]);
            last = arrays;
        }
        (times, (cpu, pcpu), last)
    };
    let (times, (cpu, pcpu), last) = if threads > 1 && parallel.iter().any(|&p| p) {
        crate::workers::with_team(&funcs, &ws_ptrs, k.scalar_area() + 1, |t| runs(Some(t)))
    } else {
        runs(None)
    };
    let median_ns = median(times);
    let median_cpu_ns = (cpu.len() == repeat.max(1)).then(|| median(cpu));
    let median_process_cpu_ns = (pcpu.len() == repeat.max(1)).then(|| median(pcpu));
    let mut checksums = String::new();
    for (name, data) in &last {
        checksums.push_str(&format!(
            "{name} {}\n",
            scop::interp::format_c_exp(scop::interp::checksum(data), 12)
        ));
    }
    Ok(Outcome {
        checksums,
        median_ns,
        median_cpu_ns,
        median_process_cpu_ns,
    })
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
