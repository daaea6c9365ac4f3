//! # DeLICM: scalars into unused array elements
//!
//! Kruse & Grosser's DeLICM (CGO'18), over the `presburger` engine and the
//! `scop` program model. Steps:
//!
//! 1. **Timepoints and zones** ([`zone`]): element-time points are flat
//!    tuples `A[e.., t..]` whose last dimensions are the schedule time. At a
//!    timepoint all reads happen before all writes; a zone point `A[e, t]`
//!    is the open gap between `t - 1` (last dimension) and `t`. Primitives:
//!    before/after/between of schedule points, reaching definitions and
//!    next writes (inclusive or not), lifetimes (occupied/unused zones),
//!    zone <-> timepoint conversions.
//! 2. **Knowledge** ([`Knowledge`]): occupied and unused zones, known
//!    contents (zone -> named value), writes (timepoint -> value, unnamed =
//!    unknown). The **conflict test** checks four rules in both directions
//!    (lifetimes, existing writes into proposed lifetimes, proposed writes
//!    into existing lifetimes, simultaneous writes) with intersections,
//!    domains and inclusions only.
//! 3. **Greedy mapping** ([`map_scalars`]): for every local scalar `s` and
//!    every store `A[f] = ... s ...` (the overwrite), propose to keep `s` in
//!    `A[f]` in every statement of the loops shared with the store; the
//!    proposal's knowledge (its lifetimes and writes) is tested against the
//!    array's knowledge, and the value flow of the scalar must be kept
//!    (every read of the scalar has a writer in the kernel, and each
//!    writer lands in the element of its readers; the conflict test keeps
//!    every other write out of the lifetimes in between). Stores that do
//!    not read the scalar come next (targets for writes whose values are
//!    never read). First fit, no backtracking, under an operation budget;
//!    on exhaustion nothing changes.
//! 4. **Operand-tree forwarding** ([`forward_operand_trees`], opt-in with
//!    [`Options::forward`]): a read of a scalar whose only definition is
//!    `s = e` becomes `e` when `e`'s iterators belong to loops shared with
//!    the reader and are equal along the flow, and no element that `e`
//!    loads is written from the definition up to the read.
//! 5. **Statistics** ([`statistics`]): reference pairs with a dependence
//!    through a local scalar, the loop dimensions of the schedule that
//!    carry no dependence, and the depth of its outermost permutable band,
//!    before and after (under the original schedule: what a scheduler
//!    starts from).
//!
//! The transformed kernel is built by rewriting the C syntax tree
//! ([`rewrite_function`]) and running the front end again, so its model
//! (same statements, domains and reference tags) and the interpreter's run
//! agree by construction; the legality checks run on that model.
//!
//! 6. **Known-value reuse** (opt-in with [`Options::known_values`]): a
//!    proposal rejected with unknown contents is tested again with known
//!    contents when the scalar's writers are copies `s = A[f(i)]` of the
//!    target array: values are named by the write (or the entry value) they
//!    come from, so a copy may live in the element that still holds the
//!    same value (see the `known` module). Off by default: the stored copy
//!    becomes the source of the element's later reads, so the value flow
//!    between the original references changes (the checksums do not).
//!
//! Differences from Polly: a scalar is mapped as a whole (all its
//! references, one target array) or not at all; known values come only
//! from plain copies of the target array; forwarding does not remove the
//! then-dead definitions (the mapping may place them); the reference model
//! of the kernel keeps its tags only without forwarding.
//!
//! ```
//! use delicm::{conflict, Side};
//! let e = Side::parse(Some("{ Dom[i] : i != 0 }"), None, Some("{}")).unwrap();
//! let p = Side::parse(Some("{ Dom[0] }"), None, Some("{}")).unwrap();
//! assert!(!conflict(&e, &p).unwrap());
//! let src = "void k(int N, double A[N]) { double s; for (int i = 0; i < N; i++) { s = 2 * i; A[i] = s; } }";
//! let r = delicm::map_scalars(src, delicm::DEFAULT_BUDGET).unwrap();
//! assert_eq!(r.mapped[0].scalar, "s");
//! assert_eq!(r.mapped[0].array, "A");
//! ```
#![forbid(unsafe_code)]

mod error;
mod forward;
mod knowledge;
mod known;
mod mapping;
mod rewrite;
mod stats;
pub mod zone;

pub use error::{Error, Result};
pub use forward::{expr_text, forward_operand_trees, Forwarded};
pub use knowledge::{conflict, with_unknown_values, Knowledge, Side, Zone};
pub use mapping::{map_scalars, transform, Mapped, Options, Transformed, DEFAULT_BUDGET};
pub use rewrite::rewrite_function;
pub use stats::{parallel_dims, permutable_depth, scalar_dependences, statistics, Statistics};
