//! # poly: the polyhedral toolkit's command line
//!
//! - `poly calc`: the iscc-compatible calculator is the `calc` crate; this
//!   crate only parses the command's arguments (see `main.rs`).
//! - [`deps`]: `poly deps`, the dependences of a C kernel (front end's
//!   program model to dataflow, no text in between).
//! - [`liveness`]: `poly liveness`, storage conflicts and contraction of a
//!   kernel's arrays, and `poly interp --contract`.
//! - [`codegen`]: `poly codegen`, AST generation (the `ast` crate).
//! - [`delicm`]: `poly delicm` and `poly interp --delicm` (DeLICM).
//! - [`compile`]: `poly compile`, the stages of compiling a kernel (model to machine code).
//! - [`run`]: `poly run`, a kernel compiled to x86-64 (the `lower` crate) and run.
//! - [`assumptions`]: `poly assumptions`, optimistic assumptions and the run-time check.
//! - [`demo`]: the built-in example run by `poly` without arguments.
//! - [`error`]: the crate's error type.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod assumptions;
pub mod bench;
pub mod codegen;
pub mod compile;
pub mod delicm;
pub mod demo;
pub mod deps;
pub mod error;
pub mod json;
pub mod liveness;
pub mod run;
pub mod schedule;

pub use error::{Error, Result};
