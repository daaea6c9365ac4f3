//! Relations that analyses on schedules build: orders between times,
//! affine schedules, and reshaping of relations between instances.
//!
//! This layer sits on top of [`Map`](crate::Map) and
//! [`BasicMap`](crate::BasicMap): it owns the constraint rows it writes (the
//! column layout `[constant | params | in | out | locals]` stays inside the
//! engine), and its callers name dimensions by their position in a tuple or
//! by a time level, never by a raw column. It may call the map layer
//! (construction, simplification, [`Map::subtract`](crate::Map::subtract),
//! composition); nothing below it calls it.
//!
//! - Time orders ([`later_at_level`], [`lex_le_from_level`]) and maps into
//!   a time space ([`zero_padding`], [`time_reversal`]): relations on an
//!   anonymous time space `[t0, ..., t(n-1)]` as dependence analysis needs
//!   them.
//! - [`AffineSchedule`]: a schedule whose time dimensions are affine
//!   functions of the instance and the parameters, with the orders between
//!   two such schedules written directly as constraints (no composition).
//! - Reshaping ([`permute_range`], [`reverse_domain_factor`],
//!   [`join_on_range`]) and two cheap tests and shortcuts
//!   ([`is_explicit_function`], [`difference`]).
//!
//! ```
//! use presburger::relation::{later_at_level, AffineSchedule};
//! use presburger::Map;
//! // t later than t' at level 1: equal first dimension, larger second one
//! let gt = later_at_level(2, 1).unwrap();
//! let want: Map = "{ [a, b] -> [c, d] : c = a and d < b }".parse().unwrap();
//! assert!(gt.is_equal(&want).unwrap());
//! // the usual 2d+1 schedule of a statement in a loop body
//! let s: Map = "[n] -> { S[i] -> [0, i, 1] }".parse().unwrap();
//! let s = AffineSchedule::from_map(&s).unwrap();
//! assert!(s.is_injective());
//! assert_eq!(s.unit_coordinates(), Some(vec![None, Some(0), None]));
//! ```

mod affine;
mod reshape;
mod time;

pub use affine::AffineSchedule;
pub use reshape::{
    difference, is_explicit_function, join_on_range, negate_range, permute_range,
    reverse_domain_factor,
};
pub use time::{later_at_level, lex_le_from_level, time_reversal, zero_padding};
