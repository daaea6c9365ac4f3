//! # The affine-function layer
//!
//! Functions, not relations: [`Aff`] (one quasi-affine function of the
//! parameters and the dimensions of a domain), [`MultiAff`] (a tuple of them
//! with a target tuple: an access function, a schedule), and the piecewise
//! [`PwAff`] and [`PwMultiAff`] (disjoint pieces `(domain set, function)`:
//! the results of lexmin/lexmax). A [`Builder`] names the dimensions of a
//! space so that constraints are written as comparisons of affs instead of
//! raw rows `[constant | params | in | out | locals]`.
//!
//! ## What the layer owns
//! - the representation of a quasi-affine function: a numerator row over
//!   `[constant | params | dims | divisions]`, a positive common
//!   denominator (rational affs such as `(i)/2` are allowed; [`Aff::floor`]
//!   makes them integral) and integer divisions `floor(e/d)` that may nest;
//!   this layout is private to the layer;
//! - exact evaluation ([`Aff::eval`] returns an [`Int`](crate::Int) and
//!   refuses a non-integral value, [`Aff::eval_rational`] returns the
//!   reduced fraction); arithmetic (`add`, `sub`, `scale`, `scale_down`,
//!   `floor`, `floor_div`, `modulo`); composition ([`Aff::pullback`],
//!   [`MultiAff::pullback`]); comparison sets ([`Aff::le_set`], ...);
//!   piecewise `min`/`max`, `add`, [`PwMultiAff::union_disjoint`];
//! - conversions: [`MultiAff::to_map`], [`PwMultiAff::to_map`],
//!   [`PwMultiAff::from_map`] and [`Map::lexmin_pw_multi_aff`](crate::Map::lexmin_pw_multi_aff)
//!   / [`lexmax_pw_multi_aff`](crate::Map::lexmax_pw_multi_aff);
//! - isl notation: `Display` and `FromStr` for the four types.
//!
//! ## What it may call
//! Only downward: [`Map`](crate::Map) and [`BasicMap`](crate::BasicMap)
//! (construction, `add_div`/`add_eq`/`add_ineq`, intersection, difference,
//! emptiness, lexmin), the [`Space`](crate::Space) and
//! [`Int`](crate::Int), and the set printer for piece domains. The map
//! layer does not call this one.
//!
//! ```
//! use presburger::{Int, Map, MultiAff, PwMultiAff};
//! // an access function and its graph
//! let f: MultiAff = "[n] -> { S[i, j] -> A[(i + j), (floor((j)/2))] }".parse().unwrap();
//! let g = f.to_map();
//! assert!(g.contains_point(&[5, 3, 4, 7, 2].map(Int::from)).unwrap());
//! // lexmin as a piecewise function
//! let m: Map = "[n] -> { [i] -> [j] : j >= i and j >= n }".parse().unwrap();
//! let p: PwMultiAff = m.lexmin_pw_multi_aff().unwrap();
//! assert_eq!(p.to_string(), "[n] -> { [i] -> [(n)] : i < n; [i] -> [(i)] : i >= n }");
//! assert!(p.to_map().unwrap().is_equal(&m.lexmin().unwrap()).unwrap());
//! ```

mod builder;
mod compare;
pub(crate) mod expr;
mod extract;
pub(crate) mod multi;
pub(crate) mod piecewise;

pub use builder::{Builder, Constraint, ConstraintKind};
pub use expr::Aff;
pub use multi::MultiAff;
pub use piecewise::{PwAff, PwMultiAff};
