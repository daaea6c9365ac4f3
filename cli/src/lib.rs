//! # poly: the polyhedral toolkit's command line
//!
//! - [`calc`]: `poly calc`, an iscc-compatible calculator over the
//!   `presburger` engine (interactive, script files, and a batch protocol
//!   used by the conformance checker).
//! - [`deps`]: `poly deps`, the dependences of a C kernel (front end's
//!   program model to dataflow, no text in between).
//! - [`delicm`]: `poly delicm` and `poly interp --delicm` (DeLICM).
//! - [`demo`]: the built-in example run by `poly` without arguments.
//! - [`error`]: the crate's error type.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod calc;
pub mod demo;
pub mod delicm;
pub mod deps;
pub mod error;
pub mod json;

pub use calc::{run_script, Session, Summary, Value};
pub use error::{Error, Pos, Result};
