//! # presburger: exact parametric integer sets and relations
//!
//! (Crate documentation: see the design section below; it grows with the engine.)
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod basic;
pub mod budget;
pub mod error;
pub mod int;
pub mod map;
pub mod simplify;
pub mod space;
pub mod coalesce;
pub mod ops;
pub mod pip;
pub mod parse;
pub mod print;
pub mod simplex;
pub mod structural;
pub mod testing;
pub mod union;

pub use basic::{BasicMap, Div};
pub use error::{Error, Result};
pub use int::Int;
pub use map::{BasicSet, Map, Set};
pub use space::{Space, Tuple, TupleKind};
pub use structural::lex_order_map;
pub use union::{UnionMap, UnionSet};
