//! Reference implementations: the simple algorithms kept as independent
//! oracles of the fast paths, tested against them (they are slower, and not
//! meant for production use).

use crate::error::Result;
use crate::lexopt::{lexopt_point, lexopt_points};
use crate::map::Map;

/// The lexicographic optimum of a set or map without parameters or input
/// dimensions by the simple method: binary search on each coordinate between
/// its rational bounds with exact integer feasibility tests. Slower than
/// [`lexopt_map`] (which runs the dual simplex with cuts); kept as its
/// independent oracle in tests.
pub fn lexopt_by_search(m: &Map, max: bool) -> Result<Map> {
    lexopt_points(m, max, |b| lexopt_point(b, max))
}
