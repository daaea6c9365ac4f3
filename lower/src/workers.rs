//! A team of worker threads for the parallel loops of a kernel
//! ([`crate::run_pieces`]): started once for all runs, handed one loop
//! instance (a *job*) at a time through atomics, with a spinning end
//! barrier, so that a job costs about a microsecond of dispatch rather
//! than a thread start or a sleeping barrier's wake-up per worker.
//!
//! A parallel loop's code runs iterations `n*c/C .. n*(c+1)/C` of its
//! loop for chunk `c` of `C` (the argument vector's worker number and
//! count, [`crate::Kernel::scalar_area`] `+ 1`, `+ 2`). A job splits the
//! loop into [`CHUNKS_PER_WORKER`] times as many chunks as workers (one per
//! worker for a tiled contraction, which repacks its shared factor per
//! chunk: gemm 1024³ on two workers took 44 ms of CPU time a run in two
//! chunks, 49 ms in eight). Worker `w` owns a contiguous range of them,
//! the same rows in every job (a time loop's sweeps find their rows in
//! that core's cache), takes its own first and then those left in the
//! others' ranges: a worker with cheaper chunks (the short rows of a
//! triangular loop) or more of the processor takes more of them, and a
//! worker that the system has not scheduled takes none: the caller runs
//! them and waits only for chunks already taken (a loaded machine
//! degrades to one thread, it does not stall on the missing worker).
//!
//! The protocol: one 64-bit *ticket* per worker holds the job's number
//! (high 32 bits), the end of the worker's range of chunks (16 bits) and
//! the next chunk to take from it (low 16 bits). The caller writes the
//! job (which function, the argument vector) into the shared state, then
//! publishes the tickets of a new job number (release); a chunk is taken
//! by a compare-and-swap that checks the job number, so a worker that
//! slept through a job can never take a chunk of it later, and a worker
//! reads the job only after such a successful take (acquire: the caller
//! does not replace the job before every taken chunk is done). Each
//! finished chunk increments `done`; the caller returns when `done` is the
//! chunk count (acquire: the workers' stores are visible). An idle worker
//! spins, then yields, then parks until the next job unparks it ([`SPIN`],
//! [`YIELD`]).

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::thread::Thread;
use std::time::{Duration, Instant};

use codegen_x86::JitFunction;

use crate::run::KernelFn;

/// Chunks per worker of a parallel loop.
pub const CHUNKS_PER_WORKER: usize = 4;

/// How long an idle worker spins on its ticket before yielding.
const SPIN: Duration = Duration::from_micros(50);

/// How long an idle worker yields its processor (checking its ticket
/// between yields) before parking.
const YIELD: Duration = Duration::from_micros(500);

/// Bits of the ticket's next-chunk and end fields.
const FIELD: u32 = 16;
const MASK: u64 = (1 << FIELD) - 1;

/// Job numbers wrap at 32 bits (the ticket's high half).
const JOB_MASK: u64 = (1 << 32) - 1;

/// The most chunks a job has (the ticket's field).
const MAX_CHUNKS: usize = MASK as usize;

fn ticket(job: u64, end: usize, next: usize) -> u64 {
    (job << (2 * FIELD)) | ((end as u64) << FIELD) | next as u64
}

fn job_of(t: u64) -> u64 {
    t >> (2 * FIELD)
}

/// Worker `w`'s range of `chunks` chunks among `n` workers.
fn range(chunks: usize, w: usize, n: usize) -> (usize, usize) {
    (chunks * w / n, chunks * (w + 1) / n)
}

/// A ticket on a cache line of its own.
#[repr(align(64))]
struct Ticket(AtomicU64);

/// What the workers share.
struct Shared {
    /// Per worker: its range of chunks of the current job.
    tickets: Vec<Ticket>,
    /// The job's function.
    func: AtomicUsize,
    /// The job's number of chunks.
    chunks: AtomicUsize,
    /// The job's argument vector.
    block: Vec<AtomicI64>,
    /// Chunks finished in the current job.
    done: AtomicUsize,
    /// Workers (besides the caller) that took a chunk of the current job.
    joined: AtomicUsize,
    stop: AtomicBool,
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
    threads: Vec<Thread>,
    job: std::cell::Cell<u64>,
}

impl View<'_> {
    /// Takes the next chunk of job `job` from worker `v`'s range, if any
    /// is left there.
    fn take_from(&self, v: usize, job: u64) -> Option<usize> {
        let ticket = &self.shared.tickets[v].0;
        let mut t = ticket.load(Ordering::Acquire);
        loop {
            let (end, next) = (((t >> FIELD) & MASK) as usize, (t & MASK) as usize);
            if job_of(t) != job || next >= end {
                return None;
            }
            match ticket.compare_exchange_weak(t, t + 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(next),
                Err(now) => t = now,
            }
        }
    }

    /// Worker `w` takes the next chunk of job `job`: from its own range
    /// first, then from the others'.
    fn take(&self, w: usize, job: u64) -> Option<usize> {
        let n = self.shared.tickets.len();
        (0..n).find_map(|d| self.take_from((w + d) % n, job))
    }

    /// Worker `w` (1 and up): waits for jobs and takes their chunks until
    /// the team stops.
    fn serve(&self, w: usize) {
        let mut b: Vec<i64> = vec![0; self.shared.block.len()];
        let mut seen = job_of(self.shared.tickets[w].0.load(Ordering::Acquire));
        // (a worker started late may see the stopping job as its first);
        // parked until the first job (a kernel whose loops are all too
        // short for the team never has its workers compete for processors)
        let mut spin = false;
        while let Some(job) = self.next_job(w, seen, spin) {
            seen = job;
            spin = true;
            let mut first = true;
            while let Some(c) = self.take(w, job) {
                if first {
                    // the job is this one until our chunk is done
                    for (d, s) in b.iter_mut().zip(&self.shared.block) {
                        *d = s.load(Ordering::Relaxed);
                    }
                    b[self.slot + 1] = self.shared.chunks.load(Ordering::Relaxed) as i64;
                    b[self.slot + 2] = self.workspaces[w];
                    self.shared.joined.fetch_add(1, Ordering::Relaxed);
                    first = false;
                }
                b[self.slot] = c as i64;
                let f = self.shared.func.load(Ordering::Relaxed);
                self.funcs[f].call((b.as_ptr(),));
                self.shared.done.fetch_add(1, Ordering::Release);
            }
        }
    }

    /// Worker `w` waits for a job other than `seen` (spinning, then
    /// yielding, then parked; with `spin` false, parked at once) and
    /// returns its number; `None` once the team stops.
    fn next_job(&self, w: usize, seen: u64, spin: bool) -> Option<u64> {
        let start = Instant::now();
        let mut n: u32 = 0;
        loop {
            if self.shared.stop.load(Ordering::Acquire) {
                return None;
            }
            let job = job_of(self.shared.tickets[w].0.load(Ordering::Acquire));
            if job != seen {
                return Some(job);
            }
            n = n.wrapping_add(1);
            if n % 64 != 0 {
                std::hint::spin_loop();
                continue;
            }
            let idle = if spin { start.elapsed() } else { YIELD };
            if idle < SPIN {
                std::hint::spin_loop();
            } else if idle < YIELD {
                std::thread::yield_now();
            } else {
                // the caller unparks every worker after publishing a job:
                // an unpark between the check above and this park makes
                // the park return at once
                std::thread::park();
            }
        }
    }
}

impl Team<'_> {
    /// Number of workers, the caller included.
    pub fn workers(&self) -> usize {
        self.view.workspaces.len()
    }

    /// Runs the function `func` with the argument vector `block` on the
    /// team, its loop in chunks; returns when all chunks are done, with the
    /// number of workers that ran at least one (the caller included when it
    /// did). `packs`: the function packs operands (a tiled contraction), so
    /// each chunk repacks the shared factor: one chunk per worker. The
    /// caller's chunks run on `block`, whose worker number and count are
    /// restored (0 and 1) before returning. Parked workers are woken only
    /// with `wake`: otherwise only workers still spinning or yielding after
    /// a recent job take part (waking a thread costs the caller a system
    /// call, and on a loaded machine the woken thread may take the caller's
    /// processor for a time slice: a short loop does not risk it).
    pub fn run(&self, func: usize, block: &mut [i64], packs: bool, wake: bool) -> usize {
        let v = &self.view;
        let n = self.workers();
        let chunks = if packs { n } else { n * CHUNKS_PER_WORKER }.min(MAX_CHUNKS);
        let sh = v.shared;
        for (d, s) in sh.block.iter().zip(block.iter()) {
            d.store(*s, Ordering::Relaxed);
        }
        sh.func.store(func, Ordering::Relaxed);
        sh.chunks.store(chunks, Ordering::Relaxed);
        sh.done.store(0, Ordering::Relaxed);
        sh.joined.store(0, Ordering::Relaxed);
        let job = (self.job.get() + 1) & JOB_MASK;
        self.job.set(job);
        for (w, t) in sh.tickets.iter().enumerate() {
            let (lo, hi) = range(chunks, w, n);
            t.0.store(ticket(job, hi, lo), Ordering::Release);
        }
        if wake {
            for t in &self.threads {
                t.unpark();
            }
        }
        let mut mine = 0;
        block[v.slot + 1] = chunks as i64;
        while let Some(c) = v.take(0, job) {
            block[v.slot] = c as i64;
            v.funcs[func].call((block.as_ptr(),));
            sh.done.fetch_add(1, Ordering::Release);
            mine += 1;
        }
        block[v.slot] = 0;
        block[v.slot + 1] = 1;
        let mut spins: u32 = 0;
        while sh.done.load(Ordering::Acquire) < chunks {
            spins = spins.wrapping_add(1);
            if spins % 1024 == 0 {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        sh.joined.load(Ordering::Relaxed) + usize::from(mine > 0)
    }
}

impl Drop for Team<'_> {
    fn drop(&mut self) {
        let sh = self.view.shared;
        sh.stop.store(true, Ordering::Release);
        let job = (self.job.get() + 1) & JOB_MASK;
        self.job.set(job);
        for t in &sh.tickets {
            t.0.store(ticket(job, 0, 0), Ordering::Release);
        }
        for t in &self.threads {
            t.unpark();
        }
    }
}

/// Runs `body` with a team of `workspaces.len()` workers (`workspaces[w]`:
/// worker `w`'s workspace pointer) for the functions `funcs`, whose
/// argument vectors have `slots` slots; `slot` is the argument slot of the
/// worker's number. The workers stop when `body` returns.
pub fn with_team<R>(
    funcs: &[JitFunction<KernelFn>],
    workspaces: &[i64],
    slots: usize,
    slot: usize,
    body: impl FnOnce(&Team) -> R,
) -> R {
    let n = workspaces.len();
    let shared = Shared {
        tickets: (0..n).map(|_| Ticket(AtomicU64::new(0))).collect(),
        func: AtomicUsize::new(0),
        chunks: AtomicUsize::new(0),
        block: (0..slots).map(|_| AtomicI64::new(0)).collect(),
        done: AtomicUsize::new(0),
        joined: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let view = View {
        shared: &shared,
        funcs,
        workspaces,
        slot,
    };
    std::thread::scope(|s| {
        let threads = (1..n)
            .map(|w| s.spawn(move || view.serve(w)).thread().clone())
            .collect();
        let team = Team {
            view,
            threads,
            job: std::cell::Cell::new(0),
        };
        body(&team)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_keep_their_fields_apart() {
        let t = ticket(7, 12, 3);
        assert_eq!(job_of(t), 7);
        assert_eq!((t >> FIELD) & MASK, 12);
        assert_eq!(t & MASK, 3);
        // taking every chunk never reaches the job number
        assert_eq!(job_of(ticket(7, MAX_CHUNKS, MAX_CHUNKS - 1) + 1), 7);
    }

    #[test]
    fn the_ranges_partition_the_chunks_in_order() {
        for chunks in 1..40 {
            for n in 1..6 {
                let mut next = 0;
                for w in 0..n {
                    let (lo, hi) = range(chunks, w, n);
                    assert_eq!(lo, next);
                    assert!(hi >= lo);
                    next = hi;
                }
                assert_eq!(next, chunks);
            }
        }
    }
}
