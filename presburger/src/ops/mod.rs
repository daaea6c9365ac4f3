//! Set operations that need the solvers: emptiness, sampling, difference,
//! complement, inclusion, counting.
//!
//! Emptiness is exact over the integers: all parameters, dimensions and
//! locals are integer unknowns of one branch-and-bound search
//! ([`crate::simplex::integer_sample`]). Difference `A \ B` splits on the
//! constraints of each disjunct of `B`, which needs every local of `B` to
//! have an explicit definition; existentials that the cheap rules of
//! [`BasicMap::detect_divs`] cannot define are made explicit with parametric
//! integer programming ([`crate::pip`]).
//!
//! One concept per module: `emptiness` (emptiness, sampling, membership),
//! `difference` (difference and complement), `inclusion` (inclusion,
//! equality, single-valuedness), `counting` (the number of points) and
//! `closure` (transitive closure and powers of a relation: the path approach).

mod closure;
mod counting;
mod difference;
mod emptiness;
mod inclusion;
mod local_map;
