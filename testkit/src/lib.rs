//! # testkit: the one home of the poly crates' test tooling
//!
//! Tests, benchmarks, the fuzz targets and `poly bench` take their fixtures,
//! oracles and data readers from here, so that each exists once. testkit
//! depends on the libraries only (`presburger`); nothing in the workspace
//! depends on the `poly` binary crate.
//!
//! ## What it owns
//! - **The shared folder** ([`shared_dir`], [`shared_path`],
//!   [`workspace_dir`]): the one function that finds `../shared` beside the
//!   repository (overridable with `POLY_SHARED_DIR`). A test that finds it
//!   missing passes vacuously, except under CI (`CI=true`, [`under_ci`]),
//!   where [`shared_path`] fails naming what is missing.
//! - **The corpus** ([`json`], [`corpus`]): a small JSON reader and the
//!   reader of the conformance case files (one JSON object a line).
//! - **The op table** ([`ops`]): corpus op name (`is_empty`, `lexmin`,
//!   `coalesce`, `subtract`, ...) to engine call, and the semantic judge of
//!   an answer against `expect`.
//! - **The kernel models** ([`kernels`]): `../shared/kernels/*.model.json`.
//! - **Pools** ([`pool`]): constraint pools and fixtures of the property
//!   tests (`BASE_POOL`, `pool_with`, `pool_set`, `pool_subset`).
//! - **Oracles**: brute-force membership and enumeration ([`oracle`]:
//!   `contains`, `basic_contains`, `box_points`, `best_in_box`, `EXIST_BOUND`,
//!   `Universe`),
//!   and the dataflow trace simulator ([`simulate`]).
//! - **Generators**: the byte-driven random set generator ([`gen`]), its
//!   proptest strategies (`strategies`, feature `proptest`, on by default)
//!   and a deterministic [`Lcg`].
//! - **Fuzz bodies** ([`fuzz`]): the bodies of the cargo-fuzz targets, and
//!   the replay of their stored corpus as plain tests.
//!
//! ## What it may call
//! The public API of `presburger` (never its internals), and nothing above
//! it. The engine's own unit tests of private modules cannot link against
//! testkit (that would be a second copy of the engine), so the base
//! constraint pool is one file (`src/pool_base.rs`) that
//! `presburger/src/testing.rs` includes; everything else they need lives in
//! integration tests that use testkit.
//!
//! ## Why `poly` depends on testkit
//! `poly bench` times the conformance cases with the same reader, op table
//! and judge as the conformance test; rather than a third library crate for
//! a JSON reader, the CLI depends on testkit (without the proptest feature).
//! The dependency points from the binary crate down to a library, so no
//! crate depends on `poly`, and there is one copy of each piece.
//!
//! ## Example
//! Judge a conformance case with the op table, and check the answer against
//! the brute-force oracle:
//!
//! ```
//! use presburger::Map;
//! use testkit::corpus::read_cases;
//! use testkit::ops::{check, Verdict};
//! use testkit::oracle::{box_points, contains};
//!
//! let line = r#"{"id": "s1", "op": "subtract",
//!     "args": ["{ [i] : 0 <= i <= 9 }", "{ [i] : i >= 5 }"],
//!     "expect": "{ [i] : 0 <= i <= 4 }"}"#;
//! let case = &read_cases(&line.replace('\n', " ")).unwrap()[0];
//! assert_eq!(check(case), Verdict::Right);
//!
//! let a: Map = "{ [i] : 0 <= i <= 9 }".parse().unwrap();
//! let b: Map = "{ [i] : i >= 5 }".parse().unwrap();
//! let d = a.subtract(&b).unwrap();
//! for p in box_points(1, -2, 12) {
//!     assert_eq!(contains(&d, &p), contains(&a, &p) && !contains(&b, &p));
//! }
//! // the shared folder is found in one place (it may be absent)
//! assert!(testkit::shared_dir().ends_with("shared") || std::env::var_os("POLY_SHARED_DIR").is_some());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod corpus;
pub mod fuzz;
pub mod gen;
pub mod json;
pub mod kernels;
mod lcg;
pub mod ops;
pub mod oracle;
pub mod pool;
mod shared;
pub mod simulate;
#[cfg(feature = "proptest")]
pub mod strategies;

pub use gen::{Generated, Shape};
pub use lcg::Lcg;
pub use oracle::Universe;
pub use shared::{
    files_with_suffix, find_shared_path, shared_dir, shared_kernel_sources, shared_path,
    shared_path_in, under_ci, workspace_dir, SHARED_DIR_VAR,
};
