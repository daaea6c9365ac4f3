//! # dataflow: array dataflow analysis on the `presburger` engine
//!
//! (Design notes: see below.)
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod deps;
pub mod error;
pub mod flow;

pub use access::AccessInfo;
pub use deps::{compute_dependences, Dependences, MemoryAccesses};
pub use error::{Error, Result};
pub use flow::{compute_flow, Flow};
