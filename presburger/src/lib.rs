//! # presburger: exact parametric integer sets and relations
//!
//! An engine for Presburger arithmetic in the style of isl, in pure Rust:
//! sets and relations of integer tuples described by affine constraints,
//! integer divisions and existential quantifiers, with symbolic parameters.
//!
//! ```
//! use presburger::{Set, UnionMap};
//! let dom: Set = "[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }".parse().unwrap();
//! let min = dom.lexmin().unwrap();
//! assert!(min.is_equal(&"[n] -> { S[0, 0] : n > 0 }".parse().unwrap()).unwrap());
//! let acc: UnionMap = "{ S[i, j] -> A[i + j] }".parse().unwrap();
//! assert_eq!(acc.maps().len(), 1);
//! ```
//!
//! ## The public API
//! The types users hold are re-exported here: [`Int`], [`Space`]
//! ([`Tuple`], [`TupleKind`]), [`BasicMap`] (with [`Div`]), [`Map`] (=
//! [`Set`], [`BasicSet`]), [`UnionMap`] (= [`UnionSet`]), [`Error`] (with [`DimRef`], the dimension an error names) and
//! [`Result`], and the free functions [`lex_order_map`] and
//! [`tuples_text`]. Their operations are methods. The public modules are
//! those a user calls into directly: [`int`], [`basic`] and [`simplify`] (the pages
//! on integers, the invariants of basic maps and their simplification),
//! [`budget`] (the operation budget), [`parse`] (the notation, and the parse functions), [`matrix`] (integer
//! linear algebra), [`simplex`] (LP and integer feasibility), [`pip`]
//! (parametric integer programming on one problem), [`space`] (parameter
//! alignment), [`reference`](mod@reference) (the oracles), [`aff`] (affine functions and the
//! named-dimension builder) and [`relation`] (relations for the analyses). Everything else is private.
//!
//! ## Layers, bottom-up
//! Each layer calls only the layers below it (no import cycles between
//! modules). Column layouts such as `[constant | params | in | out |
//! locals]` belong to the basic-map layer; the layers above move rows
//! between layouts through its helpers.
//!
//! | layer | modules | owns | may call |
//! |---|---|---|---|
//! | integers | [`int`] | [`Int`]: `i64` fast path, big integers on overflow (never wrapping) | — |
//! | matrix | [`matrix`] | flat row storage; `dot`, `eval`, gcd normalization; echelon, rank, kernel, Hermite and Smith forms | int |
//! | simplex | [`simplex`] | the exact rational tableau (incremental), integer sampling (branch and bound on the bounded directions, rounding on the others: always terminates) | matrix, int, budget |
//! | basic | [`space`], [`basic`], [`simplify`], `guess`, `refute`, `syntactic` | spaces with named parameters and tuples; one conjunction ([`BasicMap`]) with divisions and existentials, its rows in one flat buffer ([`Rows`]); Gaussian elimination, gcd tightening, redundancy and division detection; cheap emptiness (bound propagation, refutation); membership and containment decided from the rows alone | simplex, matrix, int |
//! | pip | [`pip`] | Feautrier's parametric integer programming on one problem: the parametric tableau, equalities as a lattice, the dual simplex with context splits and Gomory cuts, explicit definitions of existentials | basic, simplex |
//! | map | `map`, `union`, `ops`, `structural`, `coalesce`, `lexopt` | disjunctive unions over one space ([`Map`]) and many spaces ([`UnionMap`]); emptiness, difference, inclusion, counting; projections, products, composition; coalescing, gist, hulls; the lexicographic optimum of a union (each disjunct by pip, then the pieces merged) | pip, basic |
//! | relation | [`relation`] | relations named after the mathematics that analyses need: time orders by level, affine schedules, reshaping (permutation, domain factor, join on range), pruned difference | map |
//! | aff | [`aff`] | quasi-affine functions ([`Aff`], [`MultiAff`], [`PwAff`], [`PwMultiAff`]): the results of lexopt as functions, schedules, AST expressions; the named-dimension [`Builder`] of constraints | map, basic |
//! | notation | [`parse`], `print` | isl notation in (lexer, grammar to a syntax tree, lowering to basic maps; the map constructor [`Map::from_disjuncts`] leaves out the disjuncts the simplification finds empty and keeps the others' simplified copies and cheap normalisation for the operations, the rows as written) and out (sets and relations, a dimension defined by an equality written inside its tuple as isl does; the affine functions' `Display` and `FromStr`) | map, aff |
//! | oracles | [`reference`](mod@reference) | the simple algorithms kept as oracles of the fast ones, tested against them (brute-force membership lives in `testkit`) | anything above |
//!
//! The lowest layers are usable on their own: a parametric problem can be
//! given to [`pip::solve`] directly, and every fast path has its oracle.
//!
//! ```
//! use presburger::{pip, reference, Int, Map, Set};
//! // lexmin of u subject to u >= p and u >= 0, rows [1 | p | u]
//! let row = |v: &[i64]| v.iter().map(|&x| Int::from(x)).collect::<Vec<_>>();
//! let ctx: presburger::BasicSet = "{ [p] }".parse().unwrap();
//! let problem = pip::Problem {
//!     n_par: 1,
//!     n_unk: 1,
//!     eqs: presburger::Rows::new(),
//!     ineqs: [row(&[0, -1, 1]), row(&[0, 0, 1])].into_iter().collect(),
//!     ctx,
//! };
//! let pieces = pip::solve(&problem).unwrap();
//! assert_eq!(pieces.len(), 2); // u = p where p >= 0, u = 0 where p < 0
//! // the map layer's lexmin agrees with the reference oracle
//! let s: Set = "{ [i, j] : 0 <= i <= 4 and i <= j <= 6 and i + j >= 5 }".parse().unwrap();
//! let fast: Map = s.lexmin().unwrap();
//! assert!(fast.is_equal(&reference::lexopt_by_search(&s, false).unwrap()).unwrap());
//! assert!(fast.is_equal(&"{ [0, 5] }".parse().unwrap()).unwrap());
//! ```
//!
//! ## Exactness and budgets
//! Every answer is exact. Long computations, and parsing, charge the
//! per-thread operation [`budget`]; when it runs out they return
//! [`Error::BudgetExceeded`]. A budget is a guard ([`budget::enter`]) that
//! restores the enclosing budget when dropped, also on panic, and a nested
//! budget never grants more than the enclosing one has left.
//!
//! Test fixtures and brute-force oracles are not part of this API: they live
//! in the `testkit` crate, which the integration tests use.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod aff;
pub mod basic;
pub mod budget;
mod coalesce;
pub mod count;
mod divs;
mod error;
mod fourier_motzkin;
mod fxhash;
mod guess;
mod hint;
pub mod int;
mod join;
mod lexopt;
mod map;
pub mod matrix;
mod memo;
mod opposite_key;
mod ops;
mod pairwise;
pub mod parse;
pub mod pip;
mod print;
pub mod reference;
mod refute;
pub mod relation;
mod rows;
pub use rows::{Rows, RowsMut, RowsWriter};
pub mod simplex;
pub mod simplify;
pub mod space;
mod structural;
mod syntactic;
#[cfg(test)]
mod testing;
mod tidy;
mod trace;
mod union;

pub use aff::{Aff, Builder, Constraint, ConstraintKind, MultiAff, PwAff, PwMultiAff};
pub use basic::{BasicMap, Div};
pub use count::{
    card, card_map, is_qpolynomial_text, lower_bound, parse_union_qpolynomial, sum, upper_bound,
    PwQPolynomial, PwQPolynomialFold, QuasiPolynomial, Rat,
};
pub use error::{DimKind, DimRef, Error, Result};
pub use int::Int;
pub use map::{BasicSet, Map, Set};
pub use print::tuples_text;
pub use space::{Space, SpaceParts, Tuple, TupleKind};
pub use structural::lex_order_map;
pub use union::{UnionMap, UnionSet};
