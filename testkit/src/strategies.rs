//! proptest strategies for random bounded sets and maps (isl text).
//!
//! Values are produced by the byte-driven generator of [`crate::gen`], so
//! proptest shrinks them by shrinking bytes: fewer disjuncts, fewer extra
//! constraints, smaller coefficients and boxes.

use proptest::collection::vec;
use proptest::prelude::*;

use crate::gen::{generate_from, Bytes, Generated, Shape};

/// Raw choice bytes for one set or map.
fn choice_bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..96)
}

/// A random shape: a set with 1 to `max_dims` dimensions, or a map with
/// `max_dims` dimensions at most in all; with or without a parameter.
pub fn shape(map: bool, max_dims: usize) -> impl Strategy<Value = Shape> {
    vec(any::<u8>(), 3).prop_map(move |b| Shape::from_bytes(&mut Bytes::new(&b), map, max_dims))
}

/// A random bounded set or map of the given shape.
pub fn of_shape(shape: Shape) -> impl Strategy<Value = Generated> {
    choice_bytes().prop_map(move |b| generate_from(&b, shape))
}

/// A random bounded set: optional parameter `n`, 1 to 3 dimensions, a union
/// of 1 to 3 disjuncts with affine, `mod`, `floor` and `exists` constraints.
pub fn set() -> impl Strategy<Value = Generated> {
    shape(false, 3).prop_flat_map(of_shape)
}

/// Two random sets in the same space.
pub fn set_pair() -> impl Strategy<Value = (Generated, Generated)> {
    shape(false, 3).prop_flat_map(|s| (of_shape(s), of_shape(s)))
}

/// A random bounded relation with at most 3 input and output dimensions in all.
pub fn map() -> impl Strategy<Value = Generated> {
    shape(true, 3).prop_flat_map(of_shape)
}

/// A random relation and a random set in its domain space.
pub fn map_and_domain_set() -> impl Strategy<Value = (Generated, Generated)> {
    shape(true, 3).prop_flat_map(|s| (of_shape(s), of_shape(Shape::set(s.param, s.n_in))))
}

/// (Kept with the base pool, which the engine's unit tests include too.)
pub use crate::pool::extra_constraint;
