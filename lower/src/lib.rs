//! # lower: loop nests to x86-64
//!
//! (crate documentation below)
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod body;
mod cprint;
mod emit;
mod error;
mod function;
mod kernel;
mod linear;
mod nest;
mod pipeline;
mod run;
mod state;
mod vector;

pub use cprint::c_function;
pub use emit::{Inst, Listed, MemSize, Operand, Width};
pub use error::{Error, Result};
pub use function::{compile, Compiled};
pub use kernel::{AccessInfo, ArrayInfo, Kernel, ParamClass, StmtInfo, Storage};
pub use linear::{Lin, Poly};
pub use pipeline::{front, kernel_and_loops, loops, schedule, Front};
pub use run::{accesses_in_bounds, parse_assignments, run, KernelFn, Outcome};
