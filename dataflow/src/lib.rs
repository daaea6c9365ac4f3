//! # dataflow: array dataflow analysis on the `presburger` engine
//!
//! Given sink accesses (reads), must-source accesses (definite writes),
//! may-source accesses (possible writes), kill accesses and a schedule, all as
//! union relations from statement instances to array elements, [`compute_flow`]
//! finds for every sink access the write(s) that produced the value it reads,
//! with the meaning of isl's `isl_union_access_info_compute_flow` (see
//! [`Flow`]). [`deps::compute_dependences`] builds flow, anti and output
//! dependences and live-in / live-out accesses on top of it.
//!
//! ## Design
//!
//! Everything is computed symbolically on whole relations (nothing is
//! enumerated), with the sink *access* `p = [S[i] -> A[a]]` as the unit: a
//! sink instance reading several elements gets one answer per element.
//!
//! 1. The schedule is normalised to one anonymous time space (shorter time
//!    vectors are padded with zeros; tagged domains `[S[i] -> R[]]` without a
//!    schedule of their own use the schedule of `S`).
//! 2. Candidates, per sink access part and per source part writing the same
//!    array: `p -> x` for every source instance `x` accessing the element of
//!    `p`, split by the schedule level at which `x` runs before the sink
//!    (equal on the first `l` time dimensions, smaller on dimension `l`).
//!    With affine schedules the order constraints are added directly to the
//!    same-element relation, with no composition.
//! 3. The time `T(p)` of the last must-source or kill is found level by level
//!    (Feautrier's algorithm, as in isl): from the deepest level to the
//!    shallowest, a parametric lexicographic maximum (PIP) at that level, for
//!    the sinks not resolved at a deeper level; with `2d+1`-style schedules
//!    in each source's own instance space, sources of one loop body ordered
//!    by their position in it. The one-step formulation (one lexmax over all
//!    candidates) is kept as [`flow::compute_flow_reference`], a test oracle.
//! 4. The instances at time `T(p)` are the last sources. A dependence is a
//!    *must* dependence when that instance is unique, is a must-source (not a
//!    kill), and no other may-source runs at or after `T(p)` before the sink;
//!    otherwise all of them, and every may-source at or after `T(p)`, are *may*
//!    dependences. Sinks without a must-source or kill take every earlier
//!    may-source as a may dependence.
//! 5. No-source accesses: sinks without a last must-source/kill
//!    (`may_no_source`), and among them those without any may-source
//!    (`must_no_source`). Killed sinks appear in neither.
//!
//! Between steps, empty and redundant disjuncts are dropped; without that the
//! number of disjuncts multiplies with every intersection.
//!
//! Known difference with isl: when the schedule maps several instances *of the
//! same statement* to the same time, isl orders them by their instance
//! coordinates (and reports the largest as a must-source); here they are
//! simultaneous, so all are may-sources.
//!
//! ```
//! use dataflow::{compute_flow, AccessInfo};
//! use presburger::UnionMap;
//! let u = |s: &str| s.parse::<UnionMap>().unwrap();
//! // for (i = 0; i < n; i++) { S0: s = 0; for (k = 0; k < m; k++) S1: s += A[k]; }
//! let info = AccessInfo::from_sink(u("[n, m] -> { S1[i, k] -> s[] : 0 <= i < n and 0 <= k < m }"))
//!     .with_must_source(u("[n, m] -> { S0[i] -> s[] : 0 <= i < n; S1[i, k] -> s[] : 0 <= i < n and 0 <= k < m }"))
//!     .with_schedule(u("{ S0[i] -> [i, 0, 0]; S1[i, k] -> [i, 1, k] }"));
//! let f = compute_flow(&info).unwrap();
//! let want = u("[n, m] -> { S0[i] -> S1[i, 0] : 0 <= i < n and m > 0; \
//!                           S1[i, k] -> S1[i, k + 1] : 0 <= i < n and 0 <= k < m - 1 }");
//! assert!(f.must_dependence.is_equal(&want).unwrap());
//! assert!(f.may_no_source.is_empty().unwrap());
//! ```
//!
//! ## From a C kernel
//!
//! The front end's program model ([`scop::Model`]) is built from engine
//! values, so a kernel goes to its dependences without any text in between:
//! [`MemoryAccesses::from_model`] (or [`MemoryAccesses::from_model_tagged`])
//! takes its accesses and schedule, and [`compute_dependences_of`] runs
//! [`compute_dependences`] on them; [`AccessInfo::from_model`] asks the
//! last-writer question alone.
//!
//! ```
//! use presburger::UnionMap;
//! let model = scop::Model::from_source(
//!     "void k(int N, double A[N]) {
//!        for (int i = 1; i < N; i++)
//!          A[i] = A[i] + A[i - 1];
//!      }").unwrap();
//! let d = dataflow::compute_dependences_of(&model).unwrap();
//! let flow: UnionMap = "[N] -> { S0[i] -> S0[i + 1] : 1 <= i < N - 1 }".parse().unwrap();
//! assert!(d.flow.is_equal(&flow).unwrap());
//! assert!(d.output.is_empty().unwrap());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod deps;
pub mod error;
pub mod flow;

pub use access::AccessInfo;
pub use deps::{
    compute_dependences, compute_dependences_of, ordering_dependences, Dependences, MemoryAccesses,
};
pub use error::{Error, Result};
pub use flow::{compute_flow, Flow};
