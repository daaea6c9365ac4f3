//! # poly: the polyhedral toolkit's command line
//!
//! - [`calc`]: `poly calc`, an iscc-compatible calculator over the
//!   `presburger` engine (interactive, script files, and a batch protocol
//!   used by the conformance checker).
//! - [`deps`]: `poly deps`, the dependences of a C kernel (front end's
//!   program model to dataflow, no text in between).
//! - [`liveness`]: `poly liveness`, storage conflicts and contraction of a
//!   kernel's arrays, and `poly interp --contract`.
//! - [`codegen`]: `poly codegen`, AST generation (the `ast` crate).
//! - [`delicm`]: `poly delicm` and `poly interp --delicm` (DeLICM).
//! - [`compile`]: `poly compile`, the stages of compiling a kernel (model to machine code).
//! - [`run`]: `poly run`, a kernel compiled to x86-64 (the `lower` crate) and run.
//! - [`demo`]: the built-in example run by `poly` without arguments.
//! - [`error`]: the crate's error type.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod calc;
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

pub use calc::{run_script, Session, Summary, Value};
pub use error::{Error, Pos, Result};
