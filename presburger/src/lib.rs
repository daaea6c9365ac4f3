//! # presburger: exact parametric integer sets and relations
//!
//! An engine for Presburger arithmetic in the style of isl, in pure Rust:
//! sets and relations of integer tuples described by affine constraints,
//! integer divisions and existential quantifiers, with symbolic parameters.
//!
//! ```
//! use presburger::{Set, UnionMap};
//! let dom: Set = "[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }".parse().unwrap();
//! let min = dom.lexmin().unwrap();
//! assert!(min.is_equal(&"[n] -> { S[0, 0] : n > 0 }".parse().unwrap()).unwrap());
//! let acc: UnionMap = "{ S[i, j] -> A[i + j] }".parse().unwrap();
//! assert_eq!(acc.maps().len(), 1);
//! ```
//!
//! ## Representation
//! - [`Int`]: exact integers, `i64` on the fast path and big integers when a
//!   value does not fit (never wrapping).
//! - [`Space`]: named parameters and (possibly named, possibly nested) tuples.
//! - [`BasicMap`]: a conjunction of affine equalities and inequalities over
//!   `[params | in | out | locals]`; locals are integer divisions with a
//!   definition ([`Div`]) or plain existentials. The constraints alone define
//!   the set; definitions are consistent extra knowledge (see [`basic`]).
//! - [`Map`] (= [`Set`]): a finite union of basic maps of one space.
//! - [`UnionMap`] (= [`UnionSet`]): maps of several spaces with aligned parameters.
//!
//! ## Algorithms
//! - [`simplex`]: an exact incremental tableau (rational LP), and exact
//!   integer feasibility: equalities are solved over the integers, the
//!   recession cone is split into bounded and unbounded directions, branch
//!   and bound runs on the bounded ones and rounding along an interior
//!   direction completes the others. This always terminates.
//! - [`simplify`]: Gaussian elimination, gcd tightening, duplicate and
//!   redundant-row removal, elimination of existentials, detection of
//!   division definitions and of equal divisions.
//! - [`pip`]: Feautrier's parametric integer programming (parametric
//!   lexicographic dual simplex with a big parameter, context splitting and
//!   Gomory cuts that introduce parameter divisions). It gives `lexmin` and
//!   `lexmax` as piecewise quasi-affine results, and explicit definitions for
//!   existentials, which the difference and complement need.
//! - `guess` (internal): before any search, emptiness and sampling try
//!   bound propagation on machine integers, whose point is checked against
//!   every constraint and then kept on the basic map as a hint (re-checked
//!   before each use, as isl keeps a sample); most relations that dependence
//!   analysis asks about are decided there.
//! - [`ops`]: emptiness, sampling, difference, complement, inclusion,
//!   counting; [`structural`]: projections, products, composition and the
//!   other operations that only move variables (projection is exact: dropped
//!   dimensions become existentials); [`coalesce`]: coalescing, gist, affine
//!   and simple hulls.
//! - [`parse`] and [`print`](mod@print): isl notation both ways.
//!
//! ## Exactness and budgets
//! Every answer is exact. Long computations charge the per-thread operation
//! [`budget`]; when it runs out they return [`Error::BudgetExceeded`].
//! [`testing`] holds a deliberately simple brute-force membership oracle
//! used by the property tests.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod basic;
pub mod budget;
mod coalesce;
mod error;
mod fxhash;
mod guess;
mod int;
mod lexopt;
mod map;
pub mod matrix;
mod ops;
pub mod parse;
pub mod pip;
mod print;
pub mod reference;
mod refute;
pub mod simplex;
mod simplify;
pub mod space;
mod structural;
mod syntactic;
pub mod testing;
mod union;

pub use basic::{BasicMap, Div};
pub use error::{Error, Result};
pub use int::Int;
pub use map::{BasicSet, Map, Set};
pub use space::{Space, Tuple, TupleKind};
pub use structural::lex_order_map;
pub use union::{UnionMap, UnionSet};
