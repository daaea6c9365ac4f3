//! # The affine scheduler
//!
//! Input: [`ScheduleConstraints`] as isl defines them (a domain, a context,
//! and validity, coincidence, proximity, condition and conditional-validity
//! dependences; the file format is read by `FromStr`). Output: a
//! [`Schedule`] tree (bands with `permutable` and per-member `coincident`
//! flags, sequences with filters) that prints as isl's YAML and converts to a
//! union map ([`Schedule::to_union_map`]). Everything is exact: integer rows,
//! rational elimination, the engine's integer lexmin; no floating point.
//!
//! ## How a row is found
//! A band row gives every statement `S` an affine function
//! `φ_S(x) = c_S·x + d_S·n + c0_S`. The unknowns are these coefficients,
//! iterator coefficients split as `c = c⁺ − c⁻` (bounded by
//! [`Options::max_coefficient`]), plus Pluto's bound `u·n + w`. For each
//! dependence piece `P` (a basic relation `S → T`, intersected with the
//! domains and the context) the affine form `δ = φ_T(y) − φ_S(x)` must be
//! non-negative on `P`. The affine Farkas lemma turns that into linear
//! constraints on the unknowns: `δ ≡ λ0 + Σ λ_k a_k(z) + Σ μ_j e_j(z)` with
//! `λ ≥ 0`; the multipliers are eliminated exactly ([`farkas`]: Gaussian
//! elimination on equalities, Fourier–Motzkin with Chernikov's rule, on
//! machine integers, again on the engine's exact integers when a value does
//! not fit). The same gives `u·n + w − δ ≥ 0` on proximity (and validity)
//! pieces.
//!
//! ## The LP
//! The constraints of all pieces form one integer polyhedron of coefficients;
//! the row is its lexicographic minimum (engine `lexmin`), in the order
//! `u, w`, then per statement the parameter coefficients, the iterator
//! coefficients from the last iterator (negative parts first), the constant.
//! A statement whose earlier rows do not yet span its iterators must get a
//! linearly independent row: with `H` a basis of the orthogonal complement of
//! its earlier rows, `t = H·c ≠ 0`, encoded with `t = t⁺ − t⁻`, binaries
//! excluding both signs and `Σ(t⁺ + t⁻) ≥ 1` (exact); a cheaper sub-cone
//! (`H·c ≥ 0`, `Σ H·c ≥ 1`) is tried first. Each row is first asked to have
//! zero distance on all validity and coincidence pieces, then on coincidence
//! only, then neither: outer rows are parallel when possible. All rows of a
//! band satisfy every validity piece live at the band, so bands are
//! permutable; the `coincident` flags are then checked exactly.
//!
//! ## Bands, SCCs and progress
//! A band grows until every statement has full rank or no row exists. The
//! pairs it orders strictly are removed (pieces are intersected with
//! `δ = 0` for each member) and the child is scheduled likewise. Without a
//! row, the statements are distributed over the strongly connected
//! components of the remaining dependence graph (a sequence node in
//! topological order); a single component gets a Feautrier row (maximise the
//! number of pieces carried, `δ ≥ e_k`, `e_k ∈ {0, 1}`), which carries at
//! least one piece, so the recursion terminates. After a fused band, the
//! components are distributed instead when that gains outer parallel rows in
//! every component and (estimated) parallel plus permutable depth.
//!
//! ## Conditional validity (live-range reordering)
//! A conditional-validity piece is adjacent to a condition piece when one
//! ends where the other starts (per statement and tag, coarser than per
//! instance, as isl). At each band row, conditional validity is left out of
//! the LP; if the row violates a piece (a negative distance), its adjacent
//! conditions are made local (zero distance) for the whole band and the row
//! is recomputed; if one of them already has a non-zero distance in the band,
//! or no row remains, the piece becomes a validity constraint. A condition
//! separated by a band or a sequence forces all adjacent conditional
//! validity below it; where no band rows remain, all of it is respected.
//!
//! ## Tiling and programs
//! [`Schedule::tile`] splits the first permutable band of every path into a
//! tile band (`floor(row / size)`) over the point band; flags carry over.
//! [`constraints_from_accesses`] builds the constraints of a program from its
//! accesses with `dataflow` (all dependences, or PPCG's live-range reordering:
//! validity = flow plus the *forced* dependences that keep live-in values read
//! before they are overwritten and live-out values written last, conditional
//! validity = anti and output).
//!
//! ## Budget
//! [`Options::budget`] bounds the engine operations of a run; when it runs
//! out, [`compute_schedule`] returns [`Error::Budget`], and
//! [`compute_schedule_or`] a given fallback instead (for a program, its
//! original schedule as a tree: [`Schedule::from_union_map`]), saying so in
//! its [`Outcome`].
//!
//! ## Only a parallel outer loop
//! A caller that wants the tree only when its outer loops can be parallel
//! (`lower`'s choice) sets [`Options::outer_parallel`]: the run stops with
//! [`Error::NoOuterParallel`] before any row when all statements form one
//! component whose dependences leave no coincident first row (a linear
//! system on the pieces' affine hulls, `outer`), or once the root's first
//! row is not coincident and no distribution can gain one.
//!
//! ## Checking
//! [`check`] is the brute-force oracle: at fixed parameters it enumerates
//! the dependence pairs and compares times read off the tree;
//! [`check::verify_values`] runs a program's accesses in the original and the
//! new order and compares what every read sees and what every element holds
//! at the end (the meaning of live-range reordering, without dependences).
//!
//! ```
//! use scheduler::{compute_schedule, Options, ScheduleConstraints};
//! let sc: ScheduleConstraints = "
//!     domain: \"[n] -> { S[i, j] : 0 <= i, j < n }\"
//!     validity: \"[n] -> { S[i, j] -> S[i, j + 1] : 0 <= i < n and 0 <= j < n - 1 }\"
//! ".trim().replace("    ", "").parse().unwrap();
//! let s = compute_schedule(&sc, &Options::default()).unwrap();
//! assert_eq!(
//!     s.to_string(),
//!     "domain: \"[n] -> { S[i, j] : 0 <= i < n and 0 <= j < n }\"\n\
//!      child:\n  schedule: \"[n] -> [{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]\"\n  \
//!      permutable: 1\n  coincident: [ 1, 0 ]\n"
//! );
//! scheduler::check::verify(&sc, &s, &[3], 4).unwrap();
//! ```
#![forbid(unsafe_code)]

mod accesses;
pub mod check;
mod constraints;
mod core;
mod deps;
mod error;
pub mod farkas;
pub mod linalg;
mod live;
mod outer;
mod tree;

pub use accesses::{constraints_from_accesses, Accesses};
pub use constraints::ScheduleConstraints;
pub use core::{compute_schedule, compute_schedule_or, no_outer_parallel, Options, Outcome};
pub use error::{Error, Result};
pub use tree::{Band, Filter, Node, Row, Schedule};
