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
//! When every coordinate of every statement is one affine function of the
//! parameters and the schedule dimensions with a unit coefficient (the
//! same in all disjuncts, e.g. `S[i, j] -> [0, i, j, 1]`) and no two
//! statements share a schedule time, the scan runs on the schedule
//! dimensions alone (the pieces are projected onto them, one to one) and
//! the calls' arguments are the functions: the same points in the same
//! order as the whole space, with fewer dimensions in every set and no
//! substitution levels (`gen/coords.rs`).
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
//! Before step 3, pieces are ordered by their whole remaining times: a
//! piece whose schedule times `l..` are never lexicographically after
//! another's (for equal outer values, ties allowed) is scanned before it
//! even where the two overlap along `l` (`A[] -> [0]` runs before the loop
//! of `B[i] -> [i]`).
//!
//! ## Exactness where it matters, supersets elsewhere
//! Only the guards of the statements (at `l = n`) must be exact. Everything
//! else may be a superset of the reachable points: contexts, loop ranges,
//! hoisted conditions (the context below an `if` is what the printed
//! condition enforces). This bounds the work on divisions-heavy inputs:
//! - contexts keep only explicit divisions (other existentials are
//!   eliminated by Fourier–Motzkin);
//! - the divisions of a projection are made explicit by the engine within
//!   a bounded effort, else the projection is replaced by its rational
//!   relaxation (Fourier–Motzkin on the unknown locals);
//! - `gist` and its inclusion shortcut run within a bounded effort (past
//!   it, the set itself is a valid answer);
//! - a dimension bounded only through its own divisions gets plain
//!   bounds by eliminating them;
//! - before generation, a local of a statement's set whose rational range
//!   (with the context) holds one integer is fixed to it and eliminated
//!   (`floor((4 + i)/262144)` with `1 <= i <= 12`): fewer disjuncts and
//!   divisions in every projection and guard.
//!
//! ## Options
//! [`Options`] give each schedule dimension a [`LoopKind`] (isl's loop
//! types, from the `.in` options map or a band's `options`):
//! - `atomic`: step 8 (separation of disjuncts) is skipped;
//! - `separate`: the union is split into regions where the same pieces
//!   run; if the regions are ordered along `l`, each is scanned on its own
//!   with only its pieces (within a bounded effort, else as `default`);
//! - `unroll`: a loop with a constant bound `w` on its trip count (from a
//!   lower and an upper bound row whose combination is constant) becomes
//!   `w` copies of the body with the iterator replaced by `init + k·inc`,
//!   each guarded by the upper bound unless the trip count is exact.
//!
//! ```
//! use ast::{generate_with_options, LoopKind, Options};
//! let schedule = "{ A[i, j] -> [i, j] : 0 <= i < 10 and 0 <= j < 2 }".parse().unwrap();
//! let context = "{ : }".parse().unwrap();
//! let mut options = Options::default();
//! options.set(1, LoopKind::Unroll);
//! let code = generate_with_options(&schedule, &context, &options).unwrap();
//! assert_eq!(code.to_c(), "\
//! for (int c0 = 0; c0 <= 9; c0 += 1) {
//!   A(c0, 0);
//!   A(c0, 1);
//! }
//! ");
//! ```
//!
//! Options that hold on part of the schedule space split a level's
//! points before the loop is built ([`Rule`], [`Isolate`]; the module
//! `gen/split.rs`): a `.in` option with constraints (`{ [i] -> unroll[0] :
//! i < 4 }`) or a separation class scans the prefixes where it holds
//! apart from the others when they are ordered along the dimension; a
//! band's `isolate[[O] -> [I]]` scans, at each member, the points before
//! the convex hull of the isolated prefixes, those inside (with the loop
//! types `[isolate[] -> unroll[x]]`), after it and beside it, in that
//! order. Every part is a set of the dimensions `0..=l`, so the parts
//! partition the points and each instance still runs once, in order.
//! Unknown options and options of the wrong shape are errors with their
//! position; `isolate` in a schedule map (isl's band option) is an error.

//! ## Interleaved strides
//! Before scanning, a schedule dimension on which every statement has one
//! stride `g` with different constant offsets (`A[i] -> [2i]`,
//! `B[i] -> [2i + 1]`) is split into `(floor(t/g), t mod g)`: the same
//! order, but one shared loop with the statements ordered by offset.
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
//! sequence, set, filter, mark, expansion) are flattened into a schedule
//! map ([`tree_to_schedule`]: a sequence child's position becomes a
//! schedule dimension, a set's children all get 0 since they are not
//! ordered; an expansion replaces each instance by those it
//! expands to) and generated the same way, with the bands' options
//! ([`tree_to_schedule_with_options`]).
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
pub use options::{Isolate, LoopKind, Options, Rule};
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
