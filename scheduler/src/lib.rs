//! # The affine scheduler
//!
//! (design description: see below)
#![forbid(unsafe_code)]

pub mod check;
mod constraints;
mod core;
mod deps;
mod error;
pub mod farkas;
mod linalg;
mod live;
mod ranges;
mod tree;

pub use constraints::ScheduleConstraints;
pub use core::{compute_schedule, Options};
pub use error::{Error, Result};
pub use tree::{Band, Filter, Node, Row, Schedule};
