//! A team of worker threads for the parallel pieces of a kernel
//! ([`crate::run_pieces`]): started once for all runs (a parallel piece
//! then costs two barrier waits, not a thread start per worker), and
//! sharing a piece's outer loop out in chunks.
//!
//! A parallel piece's code runs iterations `n*c/C .. n*(c+1)/C` of its
//! outer loop for chunk `c` of `C` (the argument vector's worker number
//! and count, [`crate::Kernel::scalar_area`] `+ 1`, `+ 2`). The team
//! splits the loop into [`CHUNKS_PER_WORKER`] times as many chunks as
//! workers and hands them out in order from a shared counter: a worker
//! with cheaper chunks (the short rows of a triangular loop) or more of
//! the processor (a loaded machine) takes more of them, where equal
//! shares wait for the slowest worker. A tiled contraction is split in
//! one chunk per worker: each chunk packs the whole shared factor again
//! (gemm 1024³ on two workers: 44 ms of CPU time a run in two chunks, 49
//! ms in eight). Each worker passes its own workspace (packing buffers).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};

use codegen_x86::JitFunction;

use crate::run::KernelFn;

/// Chunks per worker of a parallel loop.
pub const CHUNKS_PER_WORKER: usize = 4;

/// The piece the team runs and its argument vector.
#[derive(Clone)]
struct Job {
    piece: usize,
    block: Vec<i64>,
    chunks: usize,
}

/// What the workers share.
struct Shared {
    start: Barrier,
    end: Barrier,
    /// `None`: stop.
    job: Mutex<Option<Job>>,
    next: AtomicUsize,
}

/// What a worker needs.
#[derive(Clone, Copy)]
struct View<'a> {
    shared: &'a Shared,
    funcs: &'a [JitFunction<KernelFn>],
    workspaces: &'a [i64],
    /// Argument slot of the worker's number (count and workspace follow).
    slot: usize,
}

/// The worker threads (number 1 and up; the caller is worker 0); dropping
/// it stops them.
pub struct Team<'a> {
    view: View<'a>,
}

impl View<'_> {
    /// Runs chunks of `job` as worker `w` until none is left.
    fn work(&self, w: usize, job: &Job) {
        let mut b = job.block.clone();
        b[self.slot + 1] = job.chunks as i64;
        b[self.slot + 2] = self.workspaces[w];
        loop {
            let c = self.shared.next.fetch_add(1, Ordering::Relaxed);
            if c >= job.chunks {
                break;
            }
            b[self.slot] = c as i64;
            self.funcs[job.piece].call((b.as_ptr(),));
        }
    }
}

impl Team<'_> {
    /// Runs the parallel piece `piece` with the argument vector `block` on
    /// every worker; returns when all chunks are done. `packs`: the piece
    /// packs operands (a tiled contraction), so each chunk repacks the
    /// shared factor: one chunk per worker.
    pub fn run(&self, piece: usize, block: &[i64], packs: bool) {
        let workers = self.view.workspaces.len();
        let job = Job {
            piece,
            block: block.to_vec(),
            chunks: if packs {
                workers
            } else {
                workers * CHUNKS_PER_WORKER
            },
        };
        let v = &self.view;
        *v.shared.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(job.clone());
        v.shared.next.store(0, Ordering::Relaxed);
        v.shared.start.wait();
        v.work(0, &job);
        v.shared.end.wait();
    }
}

impl Drop for Team<'_> {
    fn drop(&mut self) {
        let v = &self.view;
        *v.shared.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
        v.shared.start.wait();
    }
}

/// Runs `body` with a team of `workspaces.len()` workers (`workspaces[w]`:
/// worker `w`'s workspace pointer) for the pieces `funcs`; `slot` is the
/// argument slot of the worker's number. The workers stop when `body`
/// returns.
pub fn with_team<R>(
    funcs: &[JitFunction<KernelFn>],
    workspaces: &[i64],
    slot: usize,
    body: impl FnOnce(&Team) -> R,
) -> R {
    let n = workspaces.len();
    let shared = Shared {
        start: Barrier::new(n),
        end: Barrier::new(n),
        job: Mutex::new(None),
        next: AtomicUsize::new(0),
    };
    let view = View {
        shared: &shared,
        funcs,
        workspaces,
        slot,
    };
    std::thread::scope(|s| {
        for w in 1..n {
            s.spawn(move || loop {
                view.shared.start.wait();
                let job = view
                    .shared
                    .job
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                let Some(job) = job else { return };
                view.work(w, &job);
                view.shared.end.wait();
            });
        }
        let team = Team { view };
        body(&team)
    })
}
