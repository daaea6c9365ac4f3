//! # `scop`: C-subset front end, polyhedral model and reference interpreter
//!
//! This crate turns loop kernels written in a static-control subset of C99
//! into the polyhedral model used by the rest of the toolkit, and executes
//! them exactly (as gcc would) so that transformations can be validated.
//!
//! ## Pipeline
//!
//! 1. [`lexer`] splits the source into tokens with line/column positions.
//!    Comments and preprocessor lines are skipped (`min`/`max` are built in,
//!    so `#define min(a,b) ...` lines are harmless).
//! 2. [`parser`] builds an [`ast::Function`]: `int`/`double`/array parameters,
//!    `for` loops (steps `++`, `--`, `+= c`, `-= c`), `if`/`else`, local
//!    `double` scalars, assignments `= += -= *= /=`, arithmetic, calls to
//!    `sqrt exp fabs fmin fmax pow min max`. Constructs outside the subset
//!    (`while`, pointers, `?:`, ...) are reported as [`Error::Unsupported`].
//! 3. [`build`] checks the static-control conditions and extracts the
//!    [`model::Scop`]: every assignment is a statement `S0, S1, ...` in
//!    textual order. Loop bounds, `if` conditions and subscripts become
//!    quasi-affine [`affine::Affine`] expressions (with `min`/`max` in
//!    [`affine::IntTerm`], floor division by constants, and `%` by
//!    constants); iteration domains are [`affine::Formula`]s. Loop steps give
//!    divisibility constraints (`exists (e0 : i = 2e0)`).
//! 4. [`model`] prints the model as isl text: domains, the original
//!    schedule (a compact 2d+1 form: one dimension per loop and one constant
//!    dimension per sequence of two or more statements, padded with zeros),
//!    read / must-write / may-write relations and their tagged variants
//!    `[S0[i] -> R0[]] -> A[i]`, the context (parameters are non-negative)
//!    and the arrays with their extents.
//! 5. [`interp`] executes the AST directly with C semantics: `double`
//!    arithmetic in source order (no contraction), `int` arithmetic with
//!    truncating `/` and `%`, libm functions through Rust's `f64` methods.
//! 6. [`commands`] provides the CLI entry points `poly scop` and
//!    `poly interp`, and [`json`] the hand-written JSON printer.
//!
//! Scalars (local `double`s and `double` parameters that are written) are
//! zero-dimensional arrays such as `s[]`; `double` parameters that are only
//! read are symbolic constants and produce no accesses.
//!
//! Integer division and `%` in bounds and subscripts are modelled with floor
//! semantics, which agree with C for non-negative operands (the case in
//! static-control code with non-negative parameters); comparisons of the
//! form `e % m == r` are modelled with C's exact semantics.
//!
//! All errors are values of the single [`Error`] type and carry a line and a
//! column; no user input makes the crate panic.
//!
//! ```
//! let src = "void scale(int N, double a, double A[N]) {
//!   for (int i = 0; i < N; i++)
//!     A[i] = A[i] * a;
//! }";
//! let scop = scop::build_scop(src).unwrap();
//! assert_eq!(scop.domain_text(), "[N] -> { S0[i] : 0 <= i < N }");
//! assert_eq!(scop.read_text(), "[N] -> { S0[i] -> A[i] : 0 <= i < N }");
//! let out = scop::commands::interp_source(src, &["N=4".into()]).unwrap();
//! assert!(out.starts_with("A "));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod affine;
pub mod ast;
pub mod build;
pub mod commands;
pub mod driver;
pub mod error;
pub mod interp;
pub mod json;
pub mod lexer;
pub mod lower;
pub mod model;
pub mod parser;
pub mod program;

pub use build::build_scop;
pub use commands::{interp_command, model_texts, scop_command};
pub use error::{Error, Pos};
pub use model::Scop;
pub use parser::parse_kernel;
pub use program::Model;
