//! # ast: polyhedral AST generation
//!
//! Turns a schedule — a union map `{ S[i] -> [t] }` from statement instances
//! to multi-dimensional times, with a context on the parameters — into a
//! program ([`Node`]) of `for` loops, `if`s, blocks and statement calls that
//! executes every scheduled instance exactly once per time, in
//! lexicographic order of the times. The result prints as C in isl's style
//! ([`Node::to_c`]) and runs in a reference interpreter ([`run`]).
//!
//! ## The scanned space
//! Every statement `S` becomes a [`Piece`]: the set of points
//! `[t_0, .., t_{d-1}, i_0, .., i_{k-1}]` (schedule dimensions first, then
//! the statement's coordinates, padded with zeros to a common dimension
//! `n`). Scanning that space in lexicographic order is the schedule order;
//! the statement coordinates are scanned too, so a non-injective schedule
//! (several instances at one time, or one instance at several times) needs
//! no special case, and coordinates fixed by the schedule simply become
//! substitutions.
//!
//! ## The recursion over dimensions
//! `level(l, pieces, ctx)` produces the code for dimension `l`, where `ctx`
//! is a set that contains every point the enclosing code can reach (the
//! context, the hoisted conditions and the loop ranges of dimensions `< l`):
//! 1. each piece is intersected with `ctx`; empty pieces disappear;
//! 2. each piece is projected onto dimensions `0..=l` (exact integer
//!    projection by the engine; locals are then made explicit divisions);
//! 3. **separation/ordering**: pieces are grouped so that, for equal outer
//!    values, all values of dimension `l` of one group precede those of the
//!    next (an emptiness test per pair: `t_a >= t_b` with equal outer
//!    values); pieces that overlap share a group, and the groups are emitted
//!    in that order. This is how `S1 -> [0, i]`, `S2 -> [1, i]` becomes a
//!    sequence of two loops;
//! 4. per group, the union of the projections is coalesced; its projection
//!    on the outer dimensions, **gisted** against `ctx`, is the condition
//!    hoisted in front of the group (`if` only when the gist is not trivial);
//! 5. if every part fixes dimension `l` by an equality with the same value,
//!    the dimension is a **substitution** (no loop: the value replaces the
//!    iterator in the code below);
//! 6. otherwise a `for` loop: per part, the lower bound is the `max` of the
//!    constraints' ceilings and the upper bound the `min` of their floors
//!    (`floord` for non-unit coefficients, divisions as `floord` too); over
//!    several parts the loop runs from the `min` of the lower bounds to the
//!    `max` of the upper bounds. A **stride** `t = g·q + f` (an equality
//!    with a division of `t`) common to all parts gives the step `g` and the
//!    first value `f - g·floord(f - lb, g)`;
//! 7. the body is `level(l + 1, ...)` with `ctx` extended by the loop's
//!    range (a superset of the iterated points, so gists stay exact).
//!
//! 8. **separation of disjuncts**: when the union has several parts that
//!    are disjoint and ordered along dimension `l` (e.g. the dimension is a
//!    different constant in each part), each part is scanned on its own,
//!    in order, with the pieces restricted to it.
//!
//! Contexts are kept to one basic set (a union is replaced by its convex
//! hull, a superset): gists and intersections stay cheap, at the price of
//! a few conditions that a disjunctive context would have removed.
//!
//! At `l = n` every piece is a point; its remaining condition (gisted
//! against `ctx`, hence empty when the loops are exact) guards the call
//! `S(i_0, .., i_{k-1})`.
//!
//! Simplifications and where they run: gists against the context at every
//! level (conditions of the outer dimensions only, hoisted to the group);
//! a condition implied by the loop having an iteration is dropped (an empty
//! loop runs nothing); substitutions with a unit coefficient test nothing
//! (the levels below test what they need, often as loop bounds); nested
//! `if`s merge with repeated conjuncts removed; constants fold.
//!
//! Schedule trees ([`parse_tree`], isl's YAML: domain, context, band,
//! sequence, set, filter, mark) are flattened into a schedule map
//! ([`tree_to_schedule`]: a sequence or set child's position becomes a
//! schedule dimension) and generated the same way; band options are read
//! but do not change the code.
//!
//! Correctness does not depend on the bounds being tight: each level only
//! needs a loop covering the projection, because the inner conditions are
//! exact (gists against a superset of the reachable points). Every engine
//! operation charges the [`presburger::budget`]; see [`generate_with_budget`].
//!
//! ```
//! use ast::{generate, run};
//! let schedule = "[n] -> { S[i, j] -> [i, j] : 0 <= i < n and 0 <= j <= i; \
//!                          T[i] -> [i, n] : 0 <= i < n }".parse().unwrap();
//! let context = "[n] -> { : n >= 0 }".parse().unwrap();
//! let code = generate(&schedule, &context).unwrap();
//! assert_eq!(code.to_c(), "\
//! for (int c0 = 0; c0 <= n - 1; c0 += 1) {
//!   for (int c1 = 0; c1 <= c0; c1 += 1)
//!     S(c0, c1);
//!   T(c0);
//! }
//! ");
//! let trace = run(&code, &[("n".into(), 2)], 1000).unwrap();
//! assert_eq!(trace.len(), 5);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod expr;
mod gen;
mod input;
mod interp;
mod node;
mod options;
mod rows;
mod shift;
mod tree;

pub use error::{Error, Result};
pub use expr::{linear, CmpOp, Expr};
pub use gen::{generate, generate_scan, generate_scan_with, generate_with_options, Piece, Scan};
pub use input::{parse_map_input, MapInput};
pub use interp::{run, Instance};
pub use node::Node;
pub use options::{LoopKind, Options};
pub use tree::{
    generate_tree, parse_tree, tree_to_schedule, tree_to_schedule_with_options, TreeNode,
};

/// [`generate`] under an operation budget of `ops` units of engine work:
/// exhaustion is [`Error::BudgetExceeded`].
pub fn generate_with_budget(
    schedule: &presburger::UnionMap,
    context: &presburger::Set,
    ops: u64,
) -> Result<Node> {
    presburger::budget::with_budget(ops, || generate(schedule, context))
}
