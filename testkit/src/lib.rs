//! # testkit: shared test machinery for the poly crates
//!
//! - [`gen`]: a byte-driven generator of random sets and maps in isl text
//!   (parameters, boxes, affine, `mod` and `floor` constraints, `exists`
//!   clauses, unions), bounded so that every point lies in a known box.
//! - [`strategies`]: proptest strategies built on [`gen`].
//! - [`oracle`]: a deliberately simple brute-force oracle (enumerate the box,
//!   test membership with the solver-free [`presburger::testing::contains`]).
//! - [`fuzz`]: the bodies of the cargo-fuzz targets in `fuzz/`, as plain
//!   functions so that `cargo test` can replay the stored corpus.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod fuzz;
pub mod gen;
pub mod oracle;
pub mod strategies;

pub use gen::{Generated, Shape};
pub use oracle::Universe;
