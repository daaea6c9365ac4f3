//! # `scop`: C-subset front end, polyhedral model and reference interpreter
//!
//! This crate turns loop kernels written in a static-control subset of C99
//! into the polyhedral model used by the rest of the toolkit, and executes
//! them exactly (as gcc would) so that transformations can be validated.
//!
//! ## Pipeline
//!
//! 1. `lexer` splits the source into tokens with line/column positions.
//!    Comments and preprocessor lines are skipped (`min`/`max` are built in,
//!    so `#define min(a,b) ...` lines are harmless).
//! 2. `parser` builds an [`ast::Function`]: `int`/`long`/`unsigned`
//!    (`unsigned long`), `double` and array parameters (also without the
//!    outermost extent, `double A[][20][30]`), `double *` and
//!    `double *restrict` pointer parameters,
//!    `for` loops (steps `++`, `--`, `+= c`, `-= c`), `if`/`else`, local
//!    `double` scalars, local arrays declared in the function body outside
//!    every loop (`double tmp[N][M];`, uninitialised, dead at return),
//!    `#pragma omp parallel for` before a loop (recorded as the statement's
//!    parallel schedule dimension, [`program::Statement::parallel`]),
//!    assignments `= += -= *= /=`, arithmetic, calls to
//!    `sqrt exp fabs fmin fmax pow min max`, `!=` loop conditions, and
//!    calls of unknown functions as statements (error paths such as
//!    `abort()` or a `printf` under a condition) and `return;` on such a
//!    path. Constructs outside the subset
//!    (`while`, pointers, `?:`, ...) are reported as [`Error::Unsupported`].
//! 3. `build` checks the static-control conditions and extracts the
//!    [`model::Scop`]: every assignment is a statement `S0, S1, ...` in
//!    textual order. Loop bounds, `if` conditions and subscripts become
//!    quasi-affine [`affine::Affine`] expressions (with `min`/`max` in
//!    [`affine::IntTerm`], floor division by constants, and `%` by
//!    constants); iteration domains are [`affine::Formula`]s. Loop steps give
//!    divisibility constraints (`exists (e0 : i = 2e0)`).
//!    While building, it records the *optimistic assumptions* the model
//!    needs ([`assume`]): in-bounds inner subscripts (after delinearizing
//!    pointer subscripts such as `A[i * N + j]` into `A[i][j]`), no
//!    wrapping of `int`/`unsigned` values of executed code (for values
//!    that are not affine, such as the `int` subscript `i * m + j`, a
//!    range obligation [`assume::RangeObligation`] bounded at run time),
//!    `!=` loops that reach their bound (modelled as `<`/`>` loops), error
//!    paths (calls of unknown functions, `return;`) that do not run (their
//!    branches are dropped; their names are still resolved, as on every
//!    path). The `assumptions` crate turns
//!    them into the assumed and invalid contexts and a run-time check.
//! 4. `lower` turns the scop's formulas and affine expressions into engine
//!    values (constraint rows, integer divisions, existentials), and
//!    [`program`] assembles them into the [`Model`] (see below).
//! 5. The model's relations: the original schedule is a compact 2d+1 form
//!    (one dimension per loop and one constant dimension per sequence of two
//!    or more statements, padded with zeros); the accesses give read /
//!    must-write / may-write relations and their tagged variants
//!    `[S0[i] -> R0[]] -> A[i]`; the context says the parameters are
//!    non-negative; arrays carry their extents. All are engine values,
//!    printed by the engine (there is no isl printer in this crate).
//! 6. [`interp`] executes the AST directly with C semantics: `double`
//!    arithmetic in source order (no contraction), integer arithmetic in
//!    the declared types (`unsigned` wraps modulo 2^32, signed overflow is
//!    reported as the undefined behaviour it is) with truncating `/` and
//!    `%`, libm functions through Rust's `f64` methods, `return;` ending
//!    the run. Under an operation budget ([`presburger::budget`]) each loop
//!    iteration, expression node and allocated array element costs a tick,
//!    so a run that spends it ends with an error (`poly interp` runs
//!    without one; the `interp` fuzz target runs with one).
//! 7. [`commands`] provides the CLI entry points `poly scop` and
//!    `poly interp`, and [`json`] the hand-written JSON printer that
//!    [`Model::to_json`] fills.
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
//! column (except [`Error::Engine`], the engine's own error, and usage
//! errors); no user input makes the crate panic.
//!
//! ## The program model
//!
//! [`Model`] is the one typed seam between the front end and the analyses
//! (dataflow, scheduling, DeLICM, liveness, code generation). It owns
//!
//! - the parameters and their context (a [`presburger::Set`]);
//! - the statements ([`program::Statement`]): name, iterators, iteration
//!   domain (a `Set`), original schedule (a `Map`), body as an expression
//!   tree ([`model::Expr`]) and source position;
//! - the accesses ([`program::Access`]): reference tag, statement, kind
//!   (read, must-write, may-write, kill), array, subscripts, and the access
//!   relation, plain (`{ S[i] -> A[i] }`) and tagged
//!   (`{ [S[i] -> R0[]] -> A[i] }`), restricted to the domain;
//! - the arrays ([`program::Array`]): name, element type, sizes, extent (a
//!   `Set`) and kind (parameter, written scalar parameter, local);
//! - the union relations the analyses take (domain, schedule, reads,
//!   must-/may-writes, kills and the tagged forms), computed once when the
//!   model is built.
//!
//! Build it with [`Model::from_source`] (or [`Model::from_scop`]); every
//! relation is made with the engine's constructors in `lower`, never
//! through text. Consume it through its accessors: the values are ordinary
//! engine values. `dataflow::compute_dependences_of(&model)` gives its flow,
//! anti and output dependences and live-in / live-out accesses (`dataflow`
//! depends on this crate; `poly deps KERNEL.c` prints them). Printing: the
//! model's `Display` is an iscc script of its engine values, and
//! [`Model::to_json`] the `poly scop` document.
//!
//! Layering: `lower` may call only the engine's public constructors
//! (`BasicMap::add_eq`, `add_ineq`, `add_div`, `add_existential`, `Map`
//! union and intersection); [`program`] calls `lower` and the engine's set
//! operations; nothing in the crate parses isl text.
//!
//! ```
//! use presburger::UnionMap;
//! let model = scop::Model::from_source(
//!     "void sum(int N, double A[N], double s) {
//!        for (int i = 0; i < N; i++)
//!          s += A[i];
//!      }").unwrap();
//! assert_eq!(model.params(), ["N"]);
//! let domain: UnionMap = "[N] -> { S0[i] : 0 <= i < N }".parse().unwrap();
//! assert!(model.domain().is_equal(&domain).unwrap());
//! // `s += A[i]` writes s and reads s and A[i]; the read of s shares the
//! // write's tag R0 (one reference), A[i] is R1
//! let tags: Vec<(&str, &str)> = model.accesses().iter().map(|a| (a.tag.as_str(), a.array.as_str())).collect();
//! assert_eq!(tags, [("R0", "s"), ("R0", "s"), ("R1", "A")]);
//! // relational algebra on the model's values: pairs of instances that
//! // write the same element, the first scheduled before the second
//! let same = model.must_writes().apply_range(&model.must_writes().reverse().unwrap()).unwrap();
//! let time = model.schedule().intersect_domain(model.domain()).unwrap();
//! let before = time.apply_range(&time.range().unwrap().lex_order(&time.range().unwrap(), true, true).unwrap())
//!     .unwrap()
//!     .apply_range(&time.reverse().unwrap())
//!     .unwrap();
//! let waw = same.intersect(&before).unwrap();
//! let want: UnionMap = "[N] -> { S0[i] -> S0[j] : 0 <= i < j < N }".parse().unwrap();
//! assert!(waw.is_equal(&want).unwrap());
//! ```
//!
//! ```
//! let src = "void scale(int N, double a, double A[N]) {
//!   for (int i = 0; i < N; i++)
//!     A[i] = A[i] * a;
//! }";
//! let model = scop::Model::from_source(src).unwrap();
//! assert_eq!(model.domain().to_string(), "[N] -> { S0[i] : 0 <= i < N }");
//! assert_eq!(model.reads().to_string(), "[N] -> { S0[i] -> A[i] : 0 <= i < N }");
//! let out = scop::commands::interp_source(src, &["N=4".into()]).unwrap();
//! assert!(out.starts_with("A "));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod affine;
pub mod assume;
pub mod ast;
mod build;
mod cint;
pub mod commands;
pub mod driver;
pub mod error;
pub mod interp;
pub mod json;
mod lexer;
mod lower;
pub mod model;
mod parser;
pub mod program;

pub use build::{build_from_ast, build_scop};
pub use commands::{interp_command, scop_command};
pub use error::{Error, Pos};
pub use model::Scop;
pub use parser::parse_kernel;
pub use program::Model;
