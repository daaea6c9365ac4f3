//! # liveness: live ranges, storage conflicts and modular contraction
//!
//! For a C kernel (its [`scop::Model`]), which array cells can share storage
//! when the program runs under a *partial* order of its statement instances
//! (sequential C, relaxed by `#pragma omp parallel for`), and a modular
//! storage mapping `σ(x) = x mod b` that maps no two conflicting cells
//! together.
//!
//! ## Algorithm
//!
//! 1. [`Order`]: the happens-before relation on instances, from the schedule
//!    (lexicographic; pairs in different iterations of one execution of a
//!    parallel loop are incomparable) or any strict partial order given as a
//!    relation.
//! 2. [`LiveRanges`]: the exact value-based flow of the *sequential*
//!    program (`dataflow`), with virtual `START(x)` writes for values read
//!    before any write and `END(x)` reads of the last write of each cell of
//!    an array parameter. Inside an instance every read precedes the write.
//!    May-writes and kills (from models built through the library) are
//!    handled conservatively: the ranges of every execution.
//! 3. [`conflicts`]: the Live × Write triangle test of Darte, Isoard & Yuki:
//!    `x`, `y` conflict iff some flow `Wx → Rx` of `x` and write `Wy` of `y`
//!    have `not (Wy ≺ Wx)` and `not (Rx ≺ Wy)`, symmetrised. Everything is
//!    symbolic (union relations of the engine), parametric.
//! 4. [`allocate`]: successive modulo over the difference set
//!    `DS = { x − y }` (Darte, Schreiber & Villard) on a unimodular basis
//!    `B`: the modulus of coordinate `r_k · x` is `1 + max r_k · d` over
//!    `d ∈ DS` with `r_0 · d = … = r_{k−1} · d = 0`, over all parameter
//!    values (dropped when 1, kept whole when unbounded), in any
//!    dimension; the basis is the canonical one or a greedy reduced basis
//!    of `DS` (rows of smallest width first, found with the Hermite form of
//!    the engine's `matrix` layer), whichever needs less memory.
//!    [`Allocation::count`] gives the exact number of storage cells at
//!    given parameter values; [`successive_modulo`] and
//!    [`allocate_differences`] work on a difference set directly.
//! 5. [`contract_kernel`]: the program with local arrays rewritten through
//!    σ, run by the reference interpreter.
//! 6. [`check_schedule`]: a new schedule is legal when no flow is reversed
//!    and no write lands inside a live range of its cell (the same
//!    triangle, with `x = y`), live-in and live-out values protected.
//!
//! The simple definitions are kept as oracles: [`reference`](mod@reference) evaluates the
//! triangle directly on enumerated operations at fixed parameters, and
//! [`conflicts_live_live`] is the classic interval-overlap form (sequential
//! order only). Every computation can be bounded by the engine's
//! operation budget ([`presburger::budget`]); exhaustion is
//! [`Error::Budget`].
//!
//! ```
//! let src = "void k(int N, double A[N], double B[N]) {
//!   double t[N];
//!   for (int i = 0; i < N; i++) {
//!     t[i] = A[i];
//!     B[i] = t[i] * t[i];
//!   }
//! }";
//! let a = liveness::analyze(src, false).unwrap();
//! let t = a.arrays.iter().find(|x| x.name == "t").unwrap();
//! assert!(t.conflict.is_empty().unwrap()); // t[i] dies before t[i + 1] is written
//! assert_eq!(t.allocation.to_string(), "[N] -> { t[c0] -> t[] }");
//! let counts = t.allocation.count(&t.cells, &[("N", 6)]).unwrap();
//! assert_eq!(counts, (6, 1));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod conflict;
mod contract;
mod error;
mod live_live;
mod order;
mod ranges;
pub mod reference;
mod rewrite;
mod schedule_check;

pub use conflict::{conflicts, conflicts_all, ArrayConflict};
pub use contract::{allocate, allocate_differences, successive_modulo, Allocation, Fold};
pub use error::{Error, Result};
pub use live_live::conflicts_live_live;
pub use order::Order;
pub use ranges::LiveRanges;
pub use rewrite::{apply_allocations, contract_kernel, interp_contracted, interp_function};
pub use schedule_check::{check_schedule, schedule_order, Verdict};

/// The analysis of one array: conflicts and allocation.
#[derive(Debug, Clone)]
pub struct ArrayReport {
    /// The array's name.
    pub name: String,
    /// The written cells.
    pub cells: presburger::Set,
    /// The symmetric conflict relation.
    pub conflict: presburger::Map,
    /// The modular allocation.
    pub allocation: Allocation,
}

/// The analysis of a kernel.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The program model.
    pub model: scop::Model,
    /// Every written array of rank ≥ 1, in the model's order.
    pub arrays: Vec<ArrayReport>,
}

/// Conflicts and allocations of the kernel `src`, under its parallel
/// semantics (or the sequential one when `sequential`).
pub fn analyze(src: &str, sequential: bool) -> Result<Analysis> {
    let model = scop::Model::from_source(src)?;
    analyze_model(&model, sequential)
}

/// [`analyze`] with at most `ops` units of engine work
/// ([`presburger::budget`]); running out is [`Error::Budget`].
///
/// ```
/// let src = "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1.0; }";
/// assert!(matches!(liveness::analyze_with_budget(src, false, 10), Err(liveness::Error::Budget)));
/// assert!(liveness::analyze_with_budget(src, false, 100_000_000).is_ok());
/// ```
pub fn analyze_with_budget(src: &str, sequential: bool, ops: u64) -> Result<Analysis> {
    presburger::budget::with_budget(ops, || analyze(src, sequential))
}

/// [`analyze`] on a model.
pub fn analyze_model(model: &scop::Model, sequential: bool) -> Result<Analysis> {
    let seq = Order::sequential(model)?;
    let order = if sequential {
        seq.clone()
    } else {
        Order::parallel(model)?
    };
    let ranges = LiveRanges::of(model, &seq)?;
    let mut arrays = Vec::new();
    for c in conflicts(model, &order, &ranges)? {
        let allocation = allocate(model, &c)?;
        arrays.push(ArrayReport {
            name: c.name,
            cells: c.cells,
            conflict: c.conflict,
            allocation,
        });
    }
    Ok(Analysis {
        model: model.clone(),
        arrays,
    })
}
